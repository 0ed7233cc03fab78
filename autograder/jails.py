"""The empty folders that process-mode workers are shut in as root (chroot), and those a killed grader left.

A worker's jail is removed when the worker is (``ending.kill``); a grader ended by SIGKILL, the
OOM killer or a power cut cannot. Each jail is named for the process that made it, so a later run
tells the jails of a grader that is gone from those in use, and removes the first.
"""

from __future__ import annotations

import os
import re
import tempfile
import time

PREFIX = "grader-jail-"
# A jail named before jails carried their maker's pid is taken for abandoned after an hour. Even
# one still in use would come to no harm: its worker is inside already, and cannot write there.
UNNAMED_AGE = 3600
NAMED_AGE = 600
PID_MAX = 4_194_304  # Linux's largest pid_max


def make_jail() -> str:
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, as someone else's
        return True
    return True


def _abandoned(name: str, modified: float) -> bool:
    # Named jails too must have stood a while: a grader in another pid namespace (a container sharing
    # /tmp) looks ended from here, and its jail may be between mkdtemp and its worker's chroot.
    if time.time() - modified < NAMED_AGE:
        return False
    maker = name[len(PREFIX):].split("-", 1)[0]
    # Anyone may name a folder in /tmp: only a plain pid counts ("²" is a digit to isdigit, and
    # twenty nines overflow kill); anything else is judged by its age alone.
    if re.fullmatch(r"[0-9]{1,7}", maker) and "-" in name[len(PREFIX):] and 0 < int(maker) <= PID_MAX:
        return not _alive(int(maker))
    return time.time() - modified > UNNAMED_AGE


def sweep_jails(folder: str | None = None) -> int:
    """Remove the jails whose maker has ended, and return how many went.

    Only empty folders are removed (``rmdir``), so nothing else in a shared /tmp is ever at risk,
    whoever named it like a jail."""
    removed = 0
    try:
        entries = list(os.scandir(folder or tempfile.gettempdir()))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(PREFIX):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or not _abandoned(entry.name, entry.stat(follow_symlinks=False).st_mtime):
                continue
            os.rmdir(entry.path)
        except (OSError, ValueError, OverflowError):  # not empty, not ours, gone meanwhile, or a name no pid has
            continue
        removed += 1
    return removed
