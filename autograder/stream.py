"""Many calls through one worker in one go: requests written back to back, one reply frame per call.

A check's calls are known before it runs (:mod:`autograder.script`), so they need not wait on each
other's round trip: :func:`run` writes every request frame as the pipe takes it and reads the
replies as they come, the worker answering each in turn (it reads one request at a time, as
always). Nothing about a call's verdict is left to the worker:

- *time*: each call is charged its own CPU time, read by the grader from /proc, from the first
  look at the clock after the reply before it arrived (exactly as a lone call is charged from its
  first poll: a fast call costs no read of /proc at all). A call that goes past ``cpu_limit`` is
  stopped there, whatever the calls before it used. The wall clock bounds each call as a backstop
  (``wall`` from the reply before it), and the budgets bound the whole batch. Nothing is charged
  here: each call's wall time comes back (:attr:`Batch.seconds`), for the caller to charge as the
  check takes each reply, so that calls a check never asks for (it stopped at an earlier one)
  cost the student nothing;
- *size*: each reply frame is bounded by ``reply_bytes``, as a lone call's is, and all of a
  batch's together by ``BATCH_REPLIES`` times that: a batch that would hold more stops ("full")
  at the reply that does not fit, with no one at fault, and its caller asks the rest one by one;
- *content*: the reply bodies come back raw, to be sanitized by whoever reads one (a check), or
  only hashed (a verdict already known for exactly these bytes, :mod:`autograder.verdicts`).

The batch stops at the first call that does not answer; :class:`Stopped` says which and how.
"""

from __future__ import annotations

import itertools
import os
import select
import struct
import time
from dataclasses import dataclass
from typing import Callable

from . import codec
from .budget import Budget
from .proctree import cpu_seconds
from .quiet import QuietLock

BATCH_REPLIES = 4  # a batch holds at most this many lone calls' worth of replies at once
POLL_SECONDS = 0.1  # as channel.POLL_SECONDS: how often a long call's CPU time is looked at
_LENGTH = struct.Struct(">I")


@dataclass(frozen=True)
class Stopped:
    """Why the batch ended at call ``index`` (0-based) before its reply: ``how`` is "cpu" (it used
    more than its CPU time), "wall" (the backstop), "budget" (the budgets ran out first), "closed"
    (the worker's end of the pipe went: it died), "garbled" (a frame that cannot be a reply) or
    "full" (no fault: the batch holds all the replies it may, and the call's reply is left unread)."""

    index: int
    how: str
    wall: float
    detail: str = ""


@dataclass(frozen=True)
class Batch:
    """The raw reply bodies of the calls answered, in order, why it stopped early, if it did, and
    the wall seconds each call kept the grader waiting (one more than the bodies: the stopped one)."""

    bodies: tuple[bytes, ...]
    stopped: Stopped | None = None
    seconds: tuple[float, ...] = ()


def run(process, frames: list[bytes], cpu_limit: float, wall: float, budgets: tuple[Budget, ...],
        quiet: QuietLock, reply_bytes: int, holds: dict[int, Callable[[], None]] | None = None,
        keep: bool = True) -> Batch:
    """Send every frame and read one reply body per frame (see the module's docstring).

    ``holds`` maps a call's index to what must happen as soon as its reply is in and before the
    next call is sent (the grader reading shared memory back, and writing the next call's):
    no frame after a held call's is sent until then. A held call's own frame waits for the
    hold before it (``holds[-1]``, if any, comes before the first frame is sent).

    ``keep=False`` reads every reply and keeps none (a replay, which needs only that they came).

    """
    stdin, stdout = process.stdin.fileno(), process.stdout.fileno()
    holds = holds or {}
    if -1 in holds:
        holds[-1]()
    ends = list(itertools.accumulate(len(frame) for frame in frames))
    gates = iter(sorted(i for i in holds if i >= 0))
    gate = next(gates, None)
    data = memoryview(b"".join(frames))
    sent = 0
    bodies: list[bytes] = []
    buffer = bytearray()
    taken = 0  # bytes of ``buffer`` already cut into bodies: dropped once per read, not once per reply
    total = 0
    poller = select.poll()  # not select(): a descriptor number above 1023 must work too
    poller.register(stdout, select.POLLIN)
    writing = False
    with quiet.hold(alone=False, wait_seconds=wall):
        start = time.monotonic()
        left = min((b.remaining() for b in budgets), default=float("inf"))
        budget_deadline = start + left
        call_start, baseline = start, None
        seconds: list[float] = []

        def ended(how: str, detail: str = "") -> Batch:
            return Batch(tuple(bodies), Stopped(len(bodies), how, wall, detail),
                         (*seconds, time.monotonic() - call_start))
        while len(bodies) < len(frames):
            now = time.monotonic()
            if now >= budget_deadline:
                return ended("budget")
            if now - call_start >= wall:
                return ended("wall")
            allowed = ends[gate] if gate is not None else len(data)
            pending = sent < allowed
            if pending != writing:
                if pending:
                    poller.register(stdin, select.POLLOUT)
                else:
                    poller.unregister(stdin)
                writing = pending
            timeout = min(POLL_SECONDS, budget_deadline - now, call_start + wall - now)
            events = dict(poller.poll(max(1, int(timeout * 1000))))
            if not events:
                used = cpu_seconds(process)
                if used is None:
                    continue  # gone: the read says so at the next turn
                if baseline is None:
                    baseline = used
                elif used - baseline > cpu_limit:
                    return ended("cpu")
                continue
            if pending and stdin in events:
                try:
                    sent += os.write(stdin, data[sent:min(allowed, sent + (1 << 16))])
                except BlockingIOError:
                    pass
                except OSError:
                    return ended("closed")
            if stdout not in events:
                continue
            try:
                chunk = os.read(stdout, 1 << 20)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                return ended("closed")
            if taken:
                del buffer[:taken]
                taken = 0
            buffer += chunk
            while len(buffer) - taken >= codec.HEADER_SIZE and len(bodies) < len(frames):
                (length,) = _LENGTH.unpack_from(buffer, taken)
                if codec.HEADER_SIZE + length > reply_bytes:  # as a lone call's reply is bounded
                    return ended("garbled", f"replies of more than {reply_bytes} bytes")
                if keep and total + codec.HEADER_SIZE + length > reply_bytes * BATCH_REPLIES:
                    return ended("full")
                if len(buffer) - taken < codec.HEADER_SIZE + length:
                    break
                total += codec.HEADER_SIZE + length if keep else 0
                body = taken + codec.HEADER_SIZE
                bodies.append(bytes(buffer[body:body + length]) if keep else b"")
                taken = body + length
                if gate is not None and len(bodies) - 1 == gate:
                    holds[gate]()
                    gate = next(gates, None)
                seconds.append(time.monotonic() - call_start)
                call_start, baseline = time.monotonic(), None
        return Batch(tuple(bodies), None, tuple(seconds))
