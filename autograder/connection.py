"""The grader's end of one worker's pipes: one request out, one reply in, within the worker's limits.

:func:`exchange` writes a request frame and reads the reply frame with deadlines on both (the
writes are non-blocking, so a worker that stops reading cannot block the grader), stops when the
worker's CPU time, read by the grader from /proc, passes the call's limit, or when the wall-clock
backstop or the budgets run out, and charges the wait to every budget. The reply is sanitized on
arrival and must answer this very request. A load first waits for the new worker's ready byte:
a worker that dies before it is the host's failure (:class:`NotStarted`), since no student code
had reached it. What the student reads about any of it is decided by
the caller (:mod:`autograder.client`) and worded in :mod:`autograder.wording`.
"""

from __future__ import annotations

import time

from . import channel, codec, sanitize
from .budget import Budget
from .proctree import cpu_seconds
from .quiet import QuietLock


class Overrun(Exception):
    """The call ran out of time: its CPU limit (``cpu``), else the budgets before the wall clock
    (``budget_first``), else the wall clock alone."""

    def __init__(self, cpu: bool, budget_first: bool, wall: float) -> None:
        super().__init__("overrun")
        self.cpu, self.budget_first, self.wall = cpu, budget_first, wall


class Closed(Exception):
    """The worker's end of the pipe closed: it died (or closed it) before answering."""


class NotStarted(Exception):
    """The worker never said it was ready, so no student code had run in it: the host's failure."""


class Garbled(Exception):
    """The reply could not be read, or answered another request."""


def exchange(process, request: dict, cpu_limit: float, wall: float, budgets: tuple[Budget, ...],
             quiet: QuietLock, alone: bool, reply_bytes: int, raw: list | None = None) -> dict:
    """Send ``request`` (which carries its ``id``) to ``process`` and return its sanitized reply;
    ``raw``, if given, receives the frame sent and the reply's body as it came (script.py).

    A load's CPU time is counted from the worker's start (a forked worker's: its fork, the
    ``cpu_start`` it carries); a call's from the first look at the clock, one poll in, which
    spares a fast call the reading of /proc altogether.
    """
    frame = codec.dump_frame(request)
    stdin, stdout = process.stdin.fileno(), process.stdout.fileno()
    with quiet.hold(alone=alone, wait_seconds=wall):  # a retry runs alone in the class
        left = min(b.remaining() for b in budgets)
        start = time.monotonic()
        deadline = start + min(wall, left)
        baseline = [getattr(process, "cpu_start", 0.0)] if request["op"] == "load" else []

        def over_limit() -> bool:
            used = cpu_seconds(process)
            if used is None:
                return False  # the worker is gone: the read that follows says so
            if not baseline:
                baseline.append(used)
                return False
            return used - baseline[0] > cpu_limit

        try:
            if request["op"] == "load":
                _await_ready(stdout, deadline, over_limit, budget_first=left < wall)
            channel.send(stdin, frame, deadline, over_limit)
            header = channel.receive(stdout, codec.HEADER_SIZE, deadline, over_limit)
            body = channel.receive(stdout, codec.frame_length(header, reply_bytes), deadline, over_limit)
            if raw is not None:
                raw += [frame, body]
            reply = sanitize.reply(codec.load_frame(body), body)  # nothing raw goes further than this line
        except channel.Overrun as overrun:
            raise Overrun(overrun.cpu, left < wall, wall) from None
        except channel.Closed:
            raise Closed() from None
        except codec.CodecError as exc:
            raise Garbled(f"an unreadable reply ({exc})") from None
        finally:
            for budget in budgets:
                budget.charge(time.monotonic() - start)
    if reply.get("id") != request["id"]:
        raise Garbled("an answer out of turn")
    return reply


def _await_ready(stdout: int, deadline: float, over_limit, budget_first: bool) -> None:
    """Wait for the byte a new worker writes before it reads its first request (worker.py).

    A deadline that was the budgets' (``budget_first``) is the student's: their earlier calls
    spent the time, and the wait ends as any call's would."""
    try:
        greeting = channel.receive(stdout, len(codec.READY), deadline, over_limit)
    except channel.Closed:
        raise NotStarted("ended before it was ready") from None
    except channel.Overrun as overrun:
        if budget_first and not overrun.cpu:
            raise
        raise NotStarted("was not ready in time") from None
    if greeting != codec.READY:
        raise NotStarted("did not start as a worker")
