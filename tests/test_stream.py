"""stream.run: a batch's replies are cut into one body per call however the pipe delivers them.

A fake worker on plain pipes answers every request with a known frame, either all replies in one
write (many frames in one read, as a fast worker's replies arrive), or dribbled a few bytes at a
time (a frame's header and body split across reads).
"""

from __future__ import annotations

import os
import threading

import pytest

from autograder import codec, stream
from autograder.budget import Budget
from autograder.quiet import QuietLock

CALLS = 300


class Worker:
    """The part of a started process stream.run uses (its pipes and pid), answered by a thread."""

    def __init__(self, replies: list[bytes], chunk: int) -> None:
        request_read, request_write = os.pipe()
        reply_read, self._reply_write = os.pipe()
        os.set_blocking(request_write, False)
        self.stdin, self.stdout = os.fdopen(request_write, "wb", buffering=0), os.fdopen(reply_read, "rb", buffering=0)
        self.pid = os.getpid()  # its CPU time is read from /proc: this process's
        self._requests, self._replies, self._chunk = request_read, replies, chunk
        self.thread = threading.Thread(target=self._answer, daemon=True)
        self.thread.start()

    def _answer(self) -> None:
        read = 0
        for reply in self._replies:  # every request in, before any reply goes out
            header = os.read(self._requests, codec.HEADER_SIZE)
            read += len(header) + len(os.read(self._requests, codec.frame_length(header)))
        data = b"".join(self._replies)
        for start in range(0, len(data), self._chunk):
            os.write(self._reply_write, data[start:start + self._chunk])
        os.close(self._reply_write)

    def close(self) -> None:
        self.thread.join(10)
        for stream_ in (self.stdin, self.stdout):
            stream_.close()
        os.close(self._requests)


def frames(count: int, size: int = 10) -> list[bytes]:
    return [codec.dump_frame({"id": n, "ok": True, "value": "x" * (size + n % 7)}) for n in range(count)]


@pytest.mark.parametrize("chunk", [1 << 20, 3], ids=["all replies in one write", "three bytes at a time"])
def test_every_reply_is_one_body_in_order(chunk):
    requests, replies = frames(CALLS), frames(CALLS, size=40)
    worker = Worker(replies, chunk)
    try:
        batch = stream.run(worker, requests, cpu_limit=30, wall=60, budgets=(Budget(60, "this exercise"),),
                           quiet=QuietLock(), reply_bytes=1 << 20)
    finally:
        worker.close()
    assert batch.stopped is None
    assert list(batch.bodies) == [reply[codec.HEADER_SIZE:] for reply in replies]
    assert len(batch.seconds) == CALLS


def test_a_batch_that_would_hold_more_than_its_share_stops_full_at_that_reply():
    requests, replies = frames(CALLS), frames(CALLS, size=40)
    reply_bytes = 10 * len(replies[0])  # a batch holds four times that: about forty replies
    worker = Worker(replies, 1 << 20)
    try:
        batch = stream.run(worker, requests, cpu_limit=30, wall=60, budgets=(Budget(60, "this exercise"),),
                           quiet=QuietLock(), reply_bytes=reply_bytes)
    finally:
        worker.close()
    limit = stream.BATCH_REPLIES * reply_bytes
    first_over = next(i for i in range(CALLS) if sum(len(r) for r in replies[:i + 1]) > limit)
    assert batch.stopped is not None and (batch.stopped.how, batch.stopped.index) == ("full", first_over)
    assert list(batch.bodies) == [reply[codec.HEADER_SIZE:] for reply in replies[:first_over]]
