"""Moving bytes to and from a worker, never waiting past a deadline.

Both ends of the pipes are the student's to play with: a worker can stop reading its requests
(or fill its own request pipe through /proc/self/fd), and it can stop writing. So writes are
non-blocking and wait on ``poll`` like reads, and a wait ends at the deadline or as soon as
``over_limit()`` says the worker has used up its CPU time, whichever comes first.
"""

from __future__ import annotations

import os
import select
import time
from typing import Callable

POLL_SECONDS = 0.1  # how often a long wait looks at the worker's CPU time


class Overrun(Exception):
    """The wait ended: ``cpu`` is True when the worker used up its CPU time, False at the deadline."""

    def __init__(self, cpu: bool) -> None:
        super().__init__("cpu" if cpu else "deadline")
        self.cpu = cpu


class Closed(Exception):
    """The worker's end of the pipe is gone."""


def _wait(fd: int, writing: bool, deadline: float, over_limit: Callable[[], bool]) -> None:
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Overrun(cpu=False)
        poller = select.poll()  # not select(): a descriptor number above 1023 must work too
        poller.register(fd, select.POLLOUT if writing else select.POLLIN)
        if poller.poll(max(1, int(min(remaining, POLL_SECONDS) * 1000))):
            return  # ready, or hung up: the read or write that follows says which
        if over_limit():
            raise Overrun(cpu=True)


def send(fd: int, data: bytes, deadline: float, over_limit: Callable[[], bool]) -> None:
    """Write all of ``data`` to a non-blocking ``fd``."""
    view = memoryview(data)
    while view:
        _wait(fd, True, deadline, over_limit)
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            continue
        except (BrokenPipeError, OSError):
            raise Closed() from None
        view = view[written:]


def receive(fd: int, size: int, deadline: float, over_limit: Callable[[], bool]) -> bytes:
    """Read exactly ``size`` bytes."""
    chunks, got = [], 0
    while got < size:
        _wait(fd, False, deadline, over_limit)
        try:
            chunk = os.read(fd, min(size - got, 1 << 20))
        except BlockingIOError:
            continue
        except OSError:
            raise Closed() from None
        if not chunk:
            raise Closed()
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
