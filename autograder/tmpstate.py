"""Inside the sandbox: what the zygote's /tmp holds, and emptying it between two children.

Runs on the worker's side, with only the standard library (mounted next to ``worker.py``, imported
by :mod:`forkserver` before any student code runs). A child may leave files in /tmp, or change the
mode, owner, extended attributes or times of the folders there; the next child, perhaps another
student's, could read them back. :func:`layout` and :func:`folder_states` record what the sandbox
itself put there, :func:`empty` and :func:`restore_folders` put it back, and the zygote compares
the two records again before it forks.
"""

from __future__ import annotations

import os
import shutil
import stat

MAX_TMP_ENTRIES = 4096  # what a sandbox puts in /tmp itself is a handful of folders; more is a student's


def layout() -> frozenset | None:
    """Every entry of the sandbox's /tmp, with its type, mode and owner, not looking inside paths
    mounted there. Empty, unless the sandbox binds a path under the host's /tmp (a kit or a virtual
    environment there): then the folders on the way to it. None when there are too many to be the
    sandbox's own, or one cannot be read."""
    device = os.lstat("/tmp").st_dev
    found, pending = set(), ["/tmp"]
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                info = entry.stat(follow_symlinks=False)
                found.add((entry.path, stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_uid,
                           info.st_dev == device))
                if len(found) > MAX_TMP_ENTRIES:
                    return None
                if stat.S_ISDIR(info.st_mode) and info.st_dev == device:
                    pending.append(entry.path)
    return frozenset(found)


def folder_states(layout: frozenset) -> dict:
    """/tmp itself and every folder the sandbox made in it: mode, owner, extended attributes (ACLs
    among them) and modification time. A child may set all of these on folders it owns, and the next child,
    perhaps another student's, could read them back; emptying /tmp leaves them."""
    folders = ["/tmp", *sorted(path for path, kind, _mode, _uid, same in layout if kind == stat.S_IFDIR and same)]
    states = {}
    for path in folders:
        info = os.lstat(path)
        names = sorted(os.listxattr(path, follow_symlinks=False)) if hasattr(os, "listxattr") else []
        if len(names) > MAX_TMP_ENTRIES:
            raise OSError("too many extended attributes to be the sandbox's own")
        attributes = tuple((name, os.getxattr(path, name, follow_symlinks=False)) for name in names)
        states[path] = (stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid, attributes, info.st_mtime_ns)
    return states


def restore_folders(folders: dict) -> None:
    """Put /tmp's folders back as :func:`folder_states` found them at the start (best effort: what
    cannot be put back shows when the states are compared, and the zygote is not forked again)."""
    for path, (mode, _uid, _gid, attributes, mtime) in folders.items():
        try:
            _chmod_folder(path, mode)
            kept = dict(attributes)
            for name in os.listxattr(path, follow_symlinks=False) if hasattr(os, "listxattr") else ():
                if name not in kept:
                    os.removexattr(path, name, follow_symlinks=False)
            for name, value in attributes:
                os.setxattr(path, name, value, follow_symlinks=False)
            # The access time too, which is not compared: merely reading /tmp may move it.
            os.utime(path, ns=(mtime, mtime), follow_symlinks=False)
        except OSError:
            pass


def _chmod_folder(path: str, mode: int) -> None:
    """chmod a folder, never through a link, and without /proc (a hatched sandbox may have none, and
    the C library's chmod that does not follow links needs it). Called once the child's processes
    are all killed, so nothing can put a link in its place between the look and the change."""
    if not stat.S_ISDIR(os.lstat(path).st_mode):
        raise OSError(f"{path} is no longer a folder")
    os.chmod(path, mode)




def empty(folder: str, kept: set) -> None:
    """Remove what is in ``folder`` but the paths in ``kept``, looking inside the folders kept."""
    for entry in os.listdir(folder):
        path = os.path.join(folder, entry)
        if path not in kept:
            _remove(path)
        elif os.path.isdir(path) and not os.path.islink(path) and not os.path.ismount(path):
            empty(path, kept)


def _remove(path: str) -> None:
    def writable_again(_function, failed: str, _exc) -> None:
        # A folder made read-only (or unreadable) by the student: ours again, then removed.
        try:
            os.chmod(os.path.dirname(failed), 0o700)
            os.chmod(failed, 0o700)
        except OSError:
            pass
        try:
            if os.path.isdir(failed) and not os.path.islink(failed):
                shutil.rmtree(failed, ignore_errors=True)
            else:
                os.unlink(failed)
        except OSError:
            pass

    try:
        os.chmod(path, 0o700, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, onerror=writable_again)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass
