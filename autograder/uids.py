"""A uid of its own for each process-mode worker (as root): unused by anyone, and held while it lives.

Everything running as a worker's uid is killed when the worker ends, and a worker may signal
whatever runs as its uid, so the uid must belong to nobody else: not a user of the host, not a
rootless container's subordinate range (/etc/subuid, /etc/subgid), not a running process, and
not another worker of this or a concurrent run (a lock file per uid, held until the worker ends).
"""

from __future__ import annotations

import fcntl
import os
import pwd
import secrets
from pathlib import Path

FIRST, LAST = 1_500_000_000, 2_000_000_000  # far above the ranges distributions hand out
LOCKS = Path("/run/gradient-kit")


def _subordinate_ranges() -> list[range]:
    ranges = []
    for name in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(name).read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                _owner, start, count = line.strip().split(":")
                ranges.append(range(int(start), int(start) + int(count)))
            except ValueError:
                continue
    return ranges


def _running_as(uid: int) -> bool:
    from .proctree import process_table

    return any(owner == uid for _pid, _ppid, owner, _state in process_table())


def _taken(uid: int, subordinate: list[range]) -> bool:
    if any(uid in claimed for claimed in subordinate):
        return True
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        return False


def reserve_uid() -> tuple[int, int]:
    """A free uid and the descriptor of its lock; give both back with :func:`release_uid`."""
    LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    subordinate = _subordinate_ranges()
    for _attempt in range(64):
        uid = FIRST + secrets.randbelow(LAST - FIRST)
        if _taken(uid, subordinate):
            continue
        lock = os.open(LOCKS / f"uid-{uid}", os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            continue
        if _running_as(uid):  # a leftover of a run that was killed: not ours to take
            os.close(lock)
            continue
        return uid, lock
    raise OSError("no free uid could be reserved for a worker")


def release_uid(uid: int, lock: int) -> None:
    try:
        os.unlink(LOCKS / f"uid-{uid}")
    except OSError:
        pass
    os.close(lock)
