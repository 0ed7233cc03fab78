"""Warm workers: one sandbox per submission, holding a zygote that forks a fresh worker per exercise.

Starting a worker costs a sandbox, an interpreter and numpy (about 0.15 s each, six times per
student). A :class:`Zygote` pays that once per submission: its sandbox holds a process that has
imported numpy and never runs student code (``forkserver.py``), and each exercise's worker is
forked from it with pipes and a shared-memory arena of its own. The fork's child is exactly as
fresh as a new interpreter for everything a student can change (numpy, ``sys.modules``,
globals, threads); before each fork the zygote kills what the previous child left and empties
/tmp. Each submission still gets a sandbox of its own, so students are as separated as before:
started with bubblewrap, or, with ``--workers hatched``, hatched in a few milliseconds inside
the session's warm sandbox (:mod:`autograder.hatching`), which pays for numpy once per session.

Nothing the zygote says decides a verdict: it answers "forked" (the child proves itself by
answering the load) and how a child ended (the wording of a crash). A zygote that is stopped,
gone or silent (a student's code can signal it) is killed, and the next worker comes from a
fresh zygote, or, if none starts, from :func:`sandbox.spawn` as without a zygote.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import ending, sandbox
from .proctree import cpu_seconds

if TYPE_CHECKING:
    from .hatching import Hatchery

WORKERS = ("hatched", "zygote", "fresh")  # how workers start (--workers); the same results every way
ANSWER_SECONDS = 5.0  # a healthy zygote answers in milliseconds; a busy host gets generous slack
MAX_ANSWER = 256


def ask(control: socket.socket | None, request: dict, fds: tuple[int, ...] = (), wait: float = ANSWER_SECONDS) -> dict | None:
    """Send one request (with descriptors) and read its answer within ``wait`` seconds; None if anything is off."""
    if control is None:
        return None
    try:
        socket.send_fds(control, [json.dumps(request).encode()], list(fds))
        ready, _, _ = select.select([control], [], [], wait)
        if not ready:
            return None
        data = control.recv(MAX_ANSWER)
        answer = json.loads(data.decode()) if data else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return answer if isinstance(answer, dict) else None


@dataclass
class ForkedWorker:
    """One exercise's worker, forked by a zygote; used by the client like a started process."""

    stdin: object
    stdout: object
    pid: int  # the zygote's sandbox, whose CPU time the client reads (the zygote itself sits idle)
    cpu_start: float  # the sandbox's CPU time before the fork: the load is counted from here
    zygote: "Zygote"
    returncode: int | None = None
    _ended: bool = False

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        self.end()
        return self.returncode

    def end(self) -> None:
        """Close the worker's pipes and have the zygote kill and reap it."""
        if self._ended:
            return
        self._ended = True
        for stream in (self.stdin, self.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.returncode = self.zygote.reap()


@dataclass
class Zygote:
    """The warm sandbox of one submission; :meth:`fork` gives a worker, or None to start one as usual."""

    isolation: str
    limits: sandbox.Limits
    bwrap_path: str = ""
    hatchery: "Hatchery | None" = None  # the session's, which hatches this sandbox inside its own (hatching.py)
    _process: object = None  # the sandbox: a started bwrap, or a sandbox hatched in the hatchery's
    _control: socket.socket | None = None
    _failed_starts: int = 0
    _forks: int = field(default=0)

    def start(self) -> None:
        """Start the sandbox now, so that numpy is imported by the time the first fork asks for a
        worker (a session starts the next submission's while it grades this one). Never raises:
        a start that fails here is tried again, and reported, by :meth:`fork`."""
        if self._process is None and self._failed_starts == 0:
            try:
                self._start()
            except Exception:  # noqa: BLE001  (the fork's own start says what went wrong)
                self.close()

    def fork(self, arena_fd: int) -> ForkedWorker | None:
        for _attempt in (1, 2):
            if self._failed_starts >= 2:
                return None  # this host will not start one: plain workers from now on
            if self._process is None or not self._healthy():
                self.close()
                if not self._start():
                    continue
            worker = self._fork(arena_fd)
            if worker is not None:
                self._forks += 1
                return worker
            self.close()
        return None

    def reap(self) -> int | None:
        """Have the zygote kill and reap its child; how it ended, or None if unknown."""
        answer = self._ask({"op": "reap"})
        if answer is None:
            self.close()  # silent or gone: its sandbox goes, with whatever the child left running
            return None
        status = answer.get("status")
        return status if isinstance(status, int) and not isinstance(status, bool) and -64 <= status <= 255 else None

    def close(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if isinstance(self._process, subprocess.Popen):
            ending.kill(self._process)
        elif self._process is not None:
            self._process.end()
        self._process = None

    # --- internals ---------------------------------------------------------------------------

    def _start(self) -> bool:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            hatched = self.hatchery.hatch(theirs.fileno()) if self.hatchery is not None else None
            self._process = hatched or sandbox.spawn(self.isolation, self.limits, self.bwrap_path,
                                                     zygote_fd=theirs.fileno())
        except (OSError, subprocess.SubprocessError):  # a failed preexec step is a SubprocessError
            ours.close()
            self._failed_starts += 1
            return False
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._control = ours
        return True

    def _fork(self, arena_fd: int) -> ForkedWorker | None:
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        before = cpu_seconds(self._process)
        try:
            # The first fork waits for the zygote's own start (numpy's import) on a possibly busy host.
            wait = ANSWER_SECONDS if self._forks else self.limits.wall_bound(self.limits.load_timeout)
            answer = self._ask({"op": "fork"}, (request_read, reply_write, arena_fd), wait)
        finally:
            os.close(request_read)
            os.close(reply_write)
        if answer is None or answer.get("ok") is not True or before is None:
            os.close(request_write)
            os.close(reply_read)
            if answer is None and not self._forks:
                self._failed_starts += 1  # never forked once: its start is what fails
            return None
        return ForkedWorker(os.fdopen(request_write, "wb", buffering=0), os.fdopen(reply_read, "rb", buffering=0),
                            self._process.pid, before, self)

    def _ask(self, request: dict, fds: tuple[int, ...] = (), wait: float = ANSWER_SECONDS) -> dict | None:
        return ask(self._control, request, fds, wait)

    def _healthy(self) -> bool:
        """Seen from /proc by the grader: the sandbox runs, and nothing in it is stopped or traced."""
        if self._process.poll() is not None:
            return False
        pending, seen = [self._process.pid], 0
        while pending and seen < 64:
            pid = pending.pop()
            seen += 1
            try:
                with open(f"/proc/{pid}/stat", "rb") as handle:
                    state = handle.read().rsplit(b")", 1)[1].split()[0]
                if state in (b"T", b"t"):
                    return False
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                        pending += [int(child) for child in handle.read().split()]
            except (OSError, IndexError, ValueError):
                if pid == self._process.pid:
                    return False
        return True
