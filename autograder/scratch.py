"""The grader's own temporary folders, and a sweep of those a killed grader left behind.

A run copies the whole class into a folder of its own in /tmp (the intake), posts results through
another (the spool), and removes both when it ends. A run ended by SIGKILL, the OOM killer or a
power cut cannot, and a class's copy stays. So every such folder holds a lock (``flock`` on its
``.held`` file) for as long as its maker lives, which the kernel lets go of however the maker ends;
a later run removes this user's folders whose lock it can take. Unlike a pid, a lock means the
same from another pid namespace sharing /tmp (a container), and is never reused by a stranger.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # no flock (Windows): folders are made and removed, never swept
    fcntl = None  # type: ignore[assignment]

PREFIX = "gradient-kit-"
HELD = ".held"
# A folder younger than this may be between mkdtemp and its lock: it is never taken for abandoned.
SETTLE_SECONDS = 60


@contextlib.contextmanager
def scratch(kind: str, parent: str | None = None) -> Iterator[Path]:
    """A new private folder named for ``kind``, held while the block runs, then removed."""
    folder = tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-", dir=parent)
    held = None
    try:
        if fcntl is not None:
            held = os.open(os.path.join(folder, HELD), os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC
                           | os.O_NOFOLLOW, 0o600)
            fcntl.flock(held, fcntl.LOCK_EX)
        yield Path(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if held is not None:
            os.close(held)


def sweep_scratch(parent: str | None = None) -> int:
    """Remove this user's scratch folders whose maker has ended, and return how many went.

    Only a real folder of this user's that holds a real ``.held`` whose lock is free goes: a
    folder of any other shape is not one of ours (or predates the lock), and is left alone.
    """
    if fcntl is None or not shutil.rmtree.avoids_symlink_attacks:
        return 0
    try:
        entries = list(os.scandir(parent or tempfile.gettempdir()))
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        if entry.name.startswith(PREFIX) and _abandoned(entry):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += not os.path.lexists(entry.path)
    return removed


def _abandoned(entry: os.DirEntry) -> bool:
    try:
        info = entry.stat(follow_symlinks=False)
        if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid()
                or time.time() - info.st_mtime < SETTLE_SECONDS):
            return False
        held = os.open(os.path.join(entry.path, HELD), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:  # gone meanwhile, unreadable, or no lock file: not ours to judge
        return False
    try:
        if not stat.S_ISREG(os.fstat(held).st_mode):
            return False
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held: its maker is still running
        return False
    finally:
        os.close(held)
    return True
