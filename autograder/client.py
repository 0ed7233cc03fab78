"""The grader's handle on one student file running in a worker process.

A check calls ``student.call("fn", *args)`` and gets back plain data or one of the
:mod:`autograder.problems` exceptions. The worker is started on first use, restarted after a
crash or a timeout, and killed with everything it spawned when the module is closed.

Time: a call may use ``call_timeout`` seconds of CPU, read by the grader from /proc; the wall
clock stops it only as a backstop, and a call stopped by the wall clock alone (a busy host, or
code that waits) is tried once more in a fresh worker. Every wait is charged to the exercise's
and the submission's :class:`~autograder.budget.Budget`; a spent budget fails the rest at once.

The worker comes from a zygote when there is one (:mod:`autograder.zygote`), else a fresh
sandbox; requests and replies are :mod:`autograder.conversation`'s; a check's calls may be
answered from its script, sent all at once (:mod:`autograder.feed`); what the student reads
about a failure is worded in :mod:`autograder.wording`.
"""

from __future__ import annotations

import copy
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import arena, codec, ending, sandbox, wording
from .budget import Budget
from .checks import call_text
from .conversation import Conversation, waited
from .feed import Feed, Scripted
from .printed import assemble_output
from .quiet import QuietLock
from .replies import UNREADABLE, CallResult, read_result
from .problems import (BadReply, FunctionMissing, SandboxFailed, StudentRaised, StudentTimeout, SubmissionMissing,
                       SubmissionUnreadable, WorkerCrashed)
from .script import Call, Recorder, Scripts, call_key
from .submission import look, source_of
from .zygote import ForkedWorker, Zygote

MAX_TIMEOUTS = 4
# What an honest worker reports for a KeyError the worker itself raises (see _reports_honestly).
KEY_ERROR_LINEAGE = ["builtins.KeyError", "builtins.LookupError", "builtins.Exception",
                     "builtins.BaseException", "builtins.object"]


@dataclass
class StudentModule(Conversation, Scripted):
    """One exercise file of one student, loaded lazily in its own worker."""

    path: Path
    exercise: str
    isolation: str
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    bwrap_path: str = ""
    last_stderr: str = ""  # the host's words when a worker died: for the operator, never a report
    submission_budget: Budget | None = None  # shared by every exercise of the submission
    quiet: QuietLock = field(default_factory=QuietLock)  # shared by the run's pool processes
    zygote: Zygote | None = None  # the warm sandbox that forks this file's worker
    scripts: Scripts | None = None  # the class's scripts: a check's calls sent at once (feed.py)
    recorder: Recorder | None = None  # grading the reference: every call kept as a script (script.py)
    record_key: str = ""  # the check (node id) or plots whose calls are being recorded
    _process: object = None
    _source: str | None = None
    # The digest of the entry read (submission.Entry), "" until read: the store keeps a result
    # under the bytes that earned it, not the ones it planned on (the file may change in between)
    entry_digest: str = ""
    anchor: str = ""  # the class's folder: no link below it is followed to this file (submission.look)
    _problem: Exception | None = None
    _timeouts: int = 0
    _next_id: int = 0
    _output: list = field(default_factory=list)
    printed_unscripted: bool = False  # what is waiting in _output holds text no script's digest covers
    _budgets: tuple = ()
    _own: Budget | None = None  # this exercise's: what it took of the submission's is the store's to know
    _arena: arena.SharedArena | None = None
    _feed: Feed | None = None
    _script_key: str = ""
    _prefed: dict = field(default_factory=dict)  # check -> its script's replies, sent before its turn
    _history: list = field(default_factory=list)  # the calls answered since the worker loaded the file
    _ran: int = 0  # the calls the worker ran since its load (more than the history: it is stale; feed.py)
    # The grader's choice (feed.py): replays of a history and the script calls no check asked for.
    # Shared by the submission's files where given; else this file's own, made when first needed.
    lookahead: Budget | None = None

    def __post_init__(self) -> None:
        own = self._own = Budget(self.limits.exercise_seconds, "this exercise")
        self._budgets = (own,) if self.submission_budget is None else (own, self.submission_budget)

    def call(self, function: str, *args, return_args: bool = False, **kwargs) -> CallResult:
        what = f"{function}()"
        attempt = 1
        while True:
            fed = attempt == 1 and (self._feed is not None or bool(self._script_key))
            self._check_time_left(budgets=not fed or self._feed is None)
            if self._problem is not None or not fed:
                self._ensure_loaded()
            if return_args:
                sent_args, sent_kwargs, slots, where = arena.layout(list(args), kwargs, self.limits.shared_bytes)
            else:
                sent_args, sent_kwargs, slots, where = codec.encode(list(args)), codec.encode(kwargs), [], {}
            key = call_key(function, sent_args, sent_kwargs, return_args, tuple(slots)) \
                if fed or self.recorder is not None else ""
            try:
                answered = self._fed(key) if fed else None
                if answered is not None:
                    scripted, body, seen = answered
                    reply, size = self._read_scripted(body, scripted.request_id, what), len(body)
                else:
                    if fed:  # it left the script: a call like any other from here
                        self._check_time_left()
                        self._ensure_loaded()
                    request = {"op": "call", "function": function, "args": sent_args, "kwargs": sent_kwargs,
                               "return_args": return_args, "probe": secrets.token_hex(8)}
                    self._arena.write(slots)
                    raw: list = []
                    reply = self._exchange(request, self.limits.call_timeout, what, retried=attempt == 2, raw=raw)
                    seen = self._arena.read(slots)
                    size = len(raw[1]) if len(raw) > 1 else 0
                    done = Call(key, function, raw[0], request["id"], return_args, tuple(slots))
                    self._history.append(done)
                    self._ran += 1
                    if self.recorder is not None and self.record_key:
                        self.recorder.add(self.exercise, self.record_key, done, raw[1], seen)
                break
            except StudentTimeout as timeout:
                if not waited(timeout) or attempt == 2:
                    # Name the call that hung, so the student can rerun it (public checks only show it).
                    timeout.public_message = timeout.message.replace(what, call_text(function, *args, **kwargs), 1)
                    raise
                attempt = 2
        if not reply.get("ok"):
            problem = self._problem_from(reply, function)
            if isinstance(problem, StudentRaised):  # name the call that raised (public checks only show it)
                problem.public_message = problem.message.replace(f"{function}()", call_text(function, *args, **kwargs), 1)
            raise problem
        return self._result(reply, args, kwargs, return_args, slots, where, seen, function, size)

    def _result(self, reply: dict, args: tuple, kwargs: dict, return_args: bool, slots: list, where: dict,
                seen: tuple, function: str, size: int = 0) -> CallResult:
        started = time.monotonic()
        try:
            return read_result(reply, args, kwargs, return_args, slots, where, seen, size)
        except UNREADABLE as exc:
            self._restart()
            raise BadReply(f"{function}() returned something the grader cannot read ({exc}).") from None
        finally:
            # Reading the reply is the grader's time spent on this student's answer: charged like waiting for it.
            for budget in self._budgets:
                budget.charge(time.monotonic() - started)

    def _read_scripted(self, body: bytes, request_id: int, what: str) -> dict:
        try:
            reply = self._read(body, request_id)
        except Exception as garbled:  # noqa: BLE001 - connection.Garbled: worded as for a lone call
            problem, _timeouts = self._failure(garbled, what, self.limits.call_timeout, False)
            raise problem from None
        self._keep_output(reply)
        return reply

    @property
    def problem(self) -> Exception | None:
        """What fails every call to this file (missing, unreadable, not importable), once known."""
        return self._problem

    @property
    def own_spent(self) -> float:
        """Seconds this file's workers have taken so far, of its own budget and the submission's."""
        return self._own.spent

    @property
    def budget_spent(self) -> float:
        """What the store keeps of this file's share of the submission's budget (incremental.py):
        :attr:`own_spent`, or the whole budget once the submission's has run out (what ran then
        may have been cut short by it, a plot say, with no check timed out to show it)."""
        if self.submission_budget is not None and self.submission_budget.remaining() <= 0:
            return self.submission_budget.seconds
        return self.own_spent

    def drain_output(self) -> dict | None:
        """What the student's code printed since the last drain: head, tail, and how much was cut."""
        outputs, self._output, self.printed_unscripted = self._output, [], False
        return assemble_output(outputs)

    def close(self) -> None:
        if self._process is not None:
            try:  # a polite exit if the pipe has room; the kill follows either way
                os.write(self._process.stdin.fileno(), codec.dump_frame({"op": "exit"}))
            except OSError:
                pass
        self._restart()

    # --- internals ---------------------------------------------------------------------------

    def _check_time_left(self, budgets: bool = True) -> None:
        """Before a call; a scripted call's time was charged when its script ran (``budgets=False``)."""
        if self._timeouts >= MAX_TIMEOUTS:
            raise wording.out_of_tries(self.path.name, MAX_TIMEOUTS)
        spent = next((b for b in self._budgets if b.remaining() <= 0), None) if budgets else None
        if spent is not None:
            self._restart()
            raise wording.out_of_budget(self.path.name, spent)

    def _ensure_loaded(self) -> None:
        if self._problem is not None:
            # A fresh exception each time: re-raising one object grows its traceback per check.
            raise copy.copy(self._problem).with_traceback(None)
        if self._process is not None:
            return
        try:
            if self._source is None:
                entry = look(self.path, anchor=self.anchor)
                self.entry_digest = entry.digest
                self._source = source_of(entry, self.path.name)
            if not self._source.strip():
                raise FunctionMissing(f"{self.path.name} is empty.", "Start from the stub in exercises/.")
        except (SubmissionMissing, SubmissionUnreadable, FunctionMissing) as problem:
            self._problem = problem
            raise
        what = f"the import of {self.path.name}"
        for attempt in (1, 2):
            self._end_worker()  # what the first attempt left, arena included
            # A fresh arena per worker: nothing a worker leaves in it reaches the next one.
            self._arena = arena.SharedArena(self.limits.shared_bytes)
            try:
                forked = self.zygote.fork(self._arena.fd) if self.zygote is not None else None
                self._process = forked or sandbox.spawn(self.isolation, self.limits, self.bwrap_path,
                                                        pass_fds=(self._arena.fd,))
            except BaseException:
                self._end_worker()  # no worker: the arena goes now, not when the module is closed
                raise
            os.set_blocking(self._process.stdin.fileno(), False)
            # A forked worker got the arena at a number of the zygote's choosing: -1 says "yours".
            request = {"op": "load", "source": self._source, "filename": self.path.name, "module": self.exercise,
                       "arena": {"fd": -1 if forked else self._arena.fd, "size": self._arena.size}}
            try:
                reply = self._exchange(request, self.limits.load_timeout, what, retried=attempt == 2)
                break
            except SandboxFailed:  # the host's fault, and often passing (a full quota): one more try
                if attempt == 2:
                    raise
                if forked:  # and from a new zygote: an earlier exercise's code may have tampered with this one
                    self.zygote.close()
            except StudentTimeout as problem:
                if getattr(problem, "waited", False) and attempt == 1:
                    continue  # stopped by the wall clock alone: once more, in a fresh worker
                self._problem = problem  # an import that hangs will do so again: fail fast from now on
                raise
            except (WorkerCrashed, BadReply) as problem:
                self._problem = problem
                raise
        if not reply.get("ok"):
            self.close()
            self._problem = wording.import_problem(self.path.name, reply.get("error"))
            raise self._problem

    def _problem_from(self, reply: dict, function: str) -> Exception:
        error = reply.get("error")
        problem = wording.call_problem(self.path.name, function, error)
        if isinstance(problem, BadReply):
            self._restart()
        elif wording.is_raised(error) and not self._reports_honestly(reply.get("probe")):
            return self._problem
        return problem

    def _reports_honestly(self, probe: object) -> bool:
        """Whether the worker, right after the student's exception, reported a KeyError it raised
        itself as a KeyError (every call carries a ``probe`` key; worker.py).

        An exception's class is known only from the worker, which student code can patch; this
        catches a patch that rewrites every report (see the README's security model for what it
        cannot catch). The probe runs right after the call, before anything else of the
        student's. A worker caught lying fails every remaining check of the exercise.
        """
        error = probe.get("error") if isinstance(probe, dict) else None
        error = error if isinstance(error, dict) else {}
        if error.get("type") == "KeyError" and error.get("mro") == KEY_ERROR_LINEAGE:
            return True
        self._restart()
        self._problem = wording.dishonest_worker(self.path.name)
        return False

    def fresh_worker(self) -> None:
        """End the worker; the next call loads the file again in a new one, which knows nothing of earlier calls."""
        self._restart()

    def _restart(self) -> None:
        self._end_worker()
        # A fresh worker next, which knows nothing: no history, and no replies left to hand out.
        self._history, self._ran, self._feed, self._prefed = [], 0, None, {}

    def _end_worker(self) -> None:
        if self._process is not None:
            if isinstance(self._process, ForkedWorker):
                self._process.end()
            else:
                ending.kill(self._process)
            self._process = None
        if self._arena is not None:
            self._arena.close()
            self._arena = None
