"""Letting one retried call run alone while a class is graded in several processes.

A call stopped by the wall clock alone may have been starved by the grader's own other work. Its
retry should not be: every call holds a lock file shared, and a retry holds it exclusively, so
the other pool processes start no call until the retry is done. The lock is advisory and only
trusted processes take it; a retry waits for it at most a bounded time, then runs regardless.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time

POLL_SECONDS = 0.05


class QuietLock:
    """The lock file of one grading run; without a path every method is a no-op (one process)."""

    def __init__(self, path: str = "") -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CLOEXEC) if path else -1

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    @contextlib.contextmanager
    def hold(self, alone: bool, wait_seconds: float):
        """Held shared for an ordinary call; with ``alone``, exclusively if it can be had in time."""
        held = self.fd >= 0 and self._take(fcntl.LOCK_EX if alone else fcntl.LOCK_SH, wait_seconds)
        try:
            yield
        finally:
            if held:
                fcntl.flock(self.fd, fcntl.LOCK_UN)

    def _take(self, kind: int, wait_seconds: float) -> bool:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(self.fd, kind | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(POLL_SECONDS)
