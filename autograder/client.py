"""The grader's handle on one student file running in a worker process.

A check calls ``student.call("fn", *args)`` and gets back plain data or one of the
:mod:`autograder.problems` exceptions. The worker is started on first use, restarted after a
crash or a timeout, and killed with everything it spawned when the module is closed.
"""

from __future__ import annotations

import copy
import os
import select
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import codec, sandbox, sanitize
from .checks import call_text
from .problems import (BadReply, FunctionMissing, ImportFailed, NotImplementedYet, SandboxFailed, StudentRaised,
                       StudentTimeout, SubmissionMissing, SubmissionUnreadable, WorkerCrashed)

MAX_SOURCE_BYTES = 1 << 20
MAX_TIMEOUTS = 4
HEAD_CHARS = TAIL_CHARS = sanitize.OUTPUT_CHARS


@dataclass(frozen=True)
class CallResult:
    value: object
    draws: tuple = ()
    warnings: tuple = ()
    args_after: list | None = None
    kwargs_after: dict | None = None


def read_source(path: Path) -> str:
    """The text of a student's file, or a one-sentence reason it cannot be graded."""
    name = path.name
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise SubmissionMissing(f"{name} was not submitted, so its checks score 0.",
                                f"Add {name} to your submission folder.") from None
    except OSError as exc:
        raise SubmissionUnreadable(f"{name} could not be read ({exc.strerror}).") from None
    if stat.S_ISLNK(info.st_mode):
        raise SubmissionUnreadable(f"{name} is a symbolic link; submit the file itself.")
    if stat.S_ISDIR(info.st_mode):
        raise SubmissionUnreadable(f"{name} is a folder, not a Python file.")
    if not stat.S_ISREG(info.st_mode):
        raise SubmissionUnreadable(f"{name} is not a regular file.")
    if info.st_size > MAX_SOURCE_BYTES:
        raise SubmissionUnreadable(f"{name} is {info.st_size / 1e6:.1f} MB; a solution file must be under 1 MB.")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(descriptor, "rb") as handle:
            raw = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise SubmissionUnreadable(f"{name} could not be read ({exc.strerror}).") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SubmissionUnreadable(
            f"{name} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start}).",
            "Save the file as UTF-8 in your editor.") from None


@dataclass
class StudentModule:
    """One exercise file of one student, loaded lazily in its own worker."""

    path: Path
    exercise: str
    isolation: str
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    bwrap_path: str = ""
    last_stderr: str = ""  # the host's words when a worker died: for the operator, never a report
    _process: object = None
    _source: str | None = None
    _problem: Exception | None = None
    _timeouts: int = 0
    _next_id: int = 0
    _output: list = field(default_factory=list)

    def call(self, function: str, *args, return_args: bool = False, **kwargs) -> CallResult:
        if self._timeouts >= MAX_TIMEOUTS:
            raise StudentTimeout(f"Not run: {self.path.name} already ran out of time {MAX_TIMEOUTS} times.",
                                 "Look for a loop that never ends.")
        self._ensure_loaded()
        request = {"op": "call", "function": function, "args": codec.encode(list(args)),
                   "kwargs": codec.encode(kwargs), "return_args": return_args}
        try:
            reply = self._exchange(request, self.limits.call_timeout, f"{function}()")
        except StudentTimeout as problem:  # name the call that hung, so the student can rerun it
            problem.public_message = problem.message.replace(f"{function}()", call_text(function, *args, **kwargs), 1)
            raise
        if not reply.get("ok"):
            raise self._problem_from(reply.get("error"), function)
        try:
            return CallResult(
                value=codec.decode(reply.get("value")),
                draws=tuple(_decode_draws(reply.get("draws", []))),
                warnings=tuple(str(w)[:300] for w in reply.get("warnings", [])[:20] if isinstance(w, str)),
                args_after=codec.decode(reply["args_after"]) if "args_after" in reply else None,
                kwargs_after=codec.decode(reply["kwargs_after"]) if "kwargs_after" in reply else None,
            )
        except (codec.CodecError, TypeError, ValueError, KeyError) as exc:
            self._restart()
            raise BadReply(f"{function}() returned something the grader cannot read ({exc}).") from None

    @property
    def problem(self) -> Exception | None:
        """What fails every call to this file (missing, unreadable, not importable), once known."""
        return self._problem

    def drain_output(self) -> dict | None:
        """What the student's code printed since the last drain: head, tail, and how much was cut."""
        if not self._output:
            return None
        outputs, self._output = self._output, []
        total = sum(o["total"] for o in outputs)
        head = ""
        for o in outputs:  # the start, from the calls whose text is known from their beginning
            head += o["head"] + ("" if o["cut"] else o["tail"])
            if o["cut"] or len(head) >= HEAD_CHARS:
                break
        head = head[:HEAD_CHARS]
        tail = ""
        for o in reversed(outputs):  # the end, from the calls whose text is known up to their end
            tail = (o["tail"] if o["cut"] else o["head"] + o["tail"]) + tail
            if o["cut"] or len(tail) >= TAIL_CHARS:
                break
        tail = tail[-TAIL_CHARS:]
        if len(head) + len(tail) >= total:  # nothing was cut: do not show the overlap twice
            return {"head": (head + tail)[:total] if len(head) >= total else head + tail[len(head) + len(tail) - total:],
                    "tail": "", "cut": 0}
        return {"head": head, "tail": tail, "cut": total - len(head) - len(tail)}

    def close(self) -> None:
        if self._process is not None:
            try:
                self._process.stdin.write(codec.dump_frame({"op": "exit"}))
                self._process.stdin.flush()
            except OSError:
                pass
            sandbox.kill(self._process)
            self._process = None

    # --- internals ---------------------------------------------------------------------------

    def _ensure_loaded(self) -> None:
        if self._problem is not None:
            # A fresh exception each time: re-raising one object grows its traceback per check.
            raise copy.copy(self._problem).with_traceback(None)
        if self._process is not None:
            return
        try:
            if self._source is None:
                self._source = read_source(self.path)
            if not self._source.strip():
                raise FunctionMissing(f"{self.path.name} is empty.", "Start from the stub in exercises/.")
        except (SubmissionMissing, SubmissionUnreadable, FunctionMissing) as problem:
            self._problem = problem
            raise
        self._process = sandbox.spawn(self.isolation, self.limits, self.bwrap_path)
        request = {"op": "load", "source": self._source, "filename": self.path.name, "module": self.exercise}
        try:
            try:
                reply = self._exchange(request, self.limits.load_timeout, f"the import of {self.path.name}")
            except SandboxFailed:  # the host's fault, and often passing (a full quota): one more try
                self._process = sandbox.spawn(self.isolation, self.limits)
                reply = self._exchange(request, self.limits.load_timeout, f"the import of {self.path.name}")
        except (StudentTimeout, WorkerCrashed, BadReply) as problem:
            self._problem = problem  # an import that hangs or dies will do so again: fail fast from now on
            raise
        if not reply.get("ok"):
            self.close()
            self._problem = self._import_problem(reply.get("error"))
            raise self._problem

    def _import_problem(self, error: object) -> Exception:
        error = error if isinstance(error, dict) else {}
        name = self.path.name
        if error.get("kind") == "syntax":
            return ImportFailed(f"{name} has a syntax error on line {error.get('line')}: {error.get('message')}.",
                                "Run the file with python to see the error in context.",
                                str(error.get("traceback", "")))
        if error.get("kind") == "exit":
            return ImportFailed(f"{name} calls sys.exit() while it is being imported.",
                                "Remove top-level code that exits; only define functions.")
        return ImportFailed(f"{name} raised {error.get('type') or 'an exception'} while being imported: {error.get('message')}",
                            "Code at the top level of your file runs on import; keep it to imports and definitions.",
                            str(error.get("traceback", "")))

    def _problem_from(self, error: object, function: str) -> Exception:
        error = error if isinstance(error, dict) else {}
        kind, exc_type, message = error.get("kind"), error.get("type") or "an exception", error.get("message", "")
        detail = error.get("traceback", "")
        if kind == "missing":
            return FunctionMissing(f"{self.path.name} has no function named {function}.",
                                   "Keep the function name and signature from the stub.")
        if kind == "exit":
            return StudentRaised(f"{function}() called sys.exit().", "Return a value instead of exiting.", detail, "SystemExit")
        if exc_type == "NotImplementedError" and not message:  # the stub's bare raise, not a deliberate one
            return NotImplementedYet(f"{function}() is not implemented yet (it raises NotImplementedError).",
                                     "Replace the `raise NotImplementedError` line with your code.")
        if kind == "protocol":
            self._restart()
            return BadReply(f"{function}() could not be run: {message}")
        mro = tuple(error.get("mro") or ())
        return StudentRaised(f"{function}() raised {exc_type}: {message}".rstrip(": "), "", detail, exc_type, mro)

    def _exchange(self, request: dict, timeout: float, what: str) -> dict:
        self._next_id += 1
        request["id"] = self._next_id
        process = self._process
        try:
            process.stdin.write(codec.dump_frame(request))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._crashed(what)
        try:
            deadline = time.monotonic() + timeout  # one budget for the whole reply, header and body
            header = self._read(codec.HEADER_SIZE, deadline, timeout, what)
            body = self._read(codec.frame_length(header, self.limits.reply_bytes), deadline, timeout, what)
            reply = sanitize.reply(codec.load_frame(body))  # nothing raw goes further than this line
        except codec.CodecError as exc:
            self._restart()
            raise BadReply(f"The worker sent an unreadable reply during {what} ({exc}).") from None
        if reply.get("id") != request["id"]:
            self._restart()
            raise BadReply(f"The worker answered out of turn during {what}; its output cannot be trusted.")
        output = reply.get("output")
        if output and output["total"]:
            head, tail, total = output["head"], output["tail"], output["total"]
            self._output.append({"head": head, "tail": tail, "total": total,
                                 "cut": max(total - len(head) - len(tail), 0)})
        return reply

    def _read(self, size: int, deadline: float, timeout: float, what: str) -> bytes:
        stream = self._process.stdout
        data = bytearray()  # appended to in pipe-sized chunks: bytes would copy a 32 MB reply ~500 times
        while len(data) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
                self._timeouts += 1
                self._restart()
                raise StudentTimeout(f"{_sentence_start(what)} did not finish within {_seconds(timeout)}.",
                                     "Look for a loop that never ends, or work that grows too fast with the input.")
            chunk = os.read(stream.fileno(), min(size - len(data), 1 << 20))
            if not chunk:
                return self._crashed(what)
            data += chunk
        return bytes(data)

    def _crashed(self, what: str):
        process = self._process
        failure = sandbox.start_failure(process) if process else None
        code = process.poll() if process else None
        if process is not None:
            try:
                process.wait(timeout=1)  # its stderr is complete once it has exited
            except Exception:  # noqa: BLE001
                pass
            code = process.poll()
            self.last_stderr = sandbox.stderr_tail(process)
        self._restart()
        if failure is not None:
            raise SandboxFailed(f"The sandbox could not start during {what} ({failure}); this is not your fault.",
                                "Tell your instructor; this check's score is withheld.")
        if code is not None and code < 0:
            reason = f"was killed by signal {-code}"
            hint = "Signal 9 or 24 usually means it used too much memory or CPU time."
        else:
            reason = f"ended the process (exit code {code})" if code is not None else "ended the process"
            hint = "Do not call os._exit() or kill the process; return a value instead."
        raise WorkerCrashed(f"Your code {reason} during {what}.", hint)

    def _restart(self) -> None:
        if self._process is not None:
            sandbox.kill(self._process)
            self._process = None


def _seconds(value: float) -> str:
    return f"{value:g} second" + ("" if value == 1 else "s")


def _sentence_start(phrase: str) -> str:
    return phrase[0].upper() + phrase[1:] if phrase.startswith("the ") else phrase


def _decode_draws(raw: object) -> list:
    if not isinstance(raw, list):
        raise codec.CodecError("draws must be a list")
    logs = []
    for log in raw[:8]:
        if not isinstance(log, list):
            raise codec.CodecError("a draw log must be a list")
        entries = []
        for entry in log[:20000]:
            if not isinstance(entry, dict) or not isinstance(entry.get("method"), str):
                raise codec.CodecError("a draw must name its method")
            entries.append({"method": entry["method"][:40],
                            "args": codec.decode(entry.get("args", [])),
                            "kwargs": codec.decode(entry.get("kwargs", {"__dict__": []})),
                            "shape": entry.get("shape") if isinstance(entry.get("shape"), list) else [],
                            "dtype": str(entry.get("dtype", ""))[:16]})
        logs.append(entries)
    return logs
