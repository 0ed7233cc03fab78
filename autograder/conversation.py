"""The grader's side of the talk with one worker: a request and its reply, or a script's calls at once.

:class:`Conversation` is the part of :class:`~autograder.client.StudentModule` that sends requests
and reads replies: :func:`~autograder.connection.exchange` for one request, :func:`~autograder.stream.run`
for a script's calls. A request the worker does not answer (out of time, dead, garbled) becomes
what the student reads (:mod:`autograder.wording`), and ends the worker.
"""

from __future__ import annotations

from . import codec, connection, ending, sanitize, stream, wording
from .problems import StudentTimeout


class Conversation:
    """Mixed into StudentModule, whose fields it uses: ``_process``, ``limits``, ``_budgets``,
    ``quiet``, ``_next_id``, ``_output``, ``last_stderr``, ``path`` and its ``_restart``."""

    def _exchange(self, request: dict, cpu_limit: float, what: str, retried: bool, raw: list | None = None) -> dict:
        """Send one request and read its reply, within ``cpu_limit`` seconds of the worker's CPU
        time, the wall-clock backstop and what is left of the budgets (connection.py). ``raw``
        receives the frame sent and the reply's body, as they crossed."""
        self._next_id += 1
        request["id"] = self._next_id
        try:
            reply = connection.exchange(self._process, request, cpu_limit, self.limits.wall_bound(cpu_limit),
                                        self._budgets, self.quiet, retried, self.limits.reply_bytes, raw)
        except (connection.Overrun, connection.Closed, connection.NotStarted, connection.Garbled) as failure:
            problem, timeouts = self._failure(failure, what, cpu_limit, retried)
            self._timeouts += timeouts
            raise problem from None
        self._keep_output(reply, scripted=False)
        return reply

    def _stream(self, frames: list[bytes], holds: dict | None = None, keep: bool = True) -> stream.Batch:
        """The calls through the worker at once; nothing charged (the caller charges what is taken)."""
        cpu_limit = self.limits.call_timeout
        return stream.run(self._process, frames, cpu_limit, self.limits.wall_bound(cpu_limit), self._budgets,
                          self.quiet, self.limits.reply_bytes, holds, keep)

    def _stopped(self, stopped: stream.Stopped, what: str) -> tuple[Exception, int]:
        """What the student reads about a scripted call the worker did not answer, as if it had
        been sent alone (the worker is ended)."""
        cpu_limit = self.limits.call_timeout
        if stopped.how in ("cpu", "wall", "budget"):
            failure = connection.Overrun(stopped.how == "cpu", stopped.how == "budget", stopped.wall)
        elif stopped.how == "garbled":
            failure = connection.Garbled(stopped.detail)
        else:
            failure = connection.Closed()
        return self._failure(failure, what, cpu_limit, False)

    def _read(self, body: bytes, request_id: object) -> dict:
        """A scripted call's reply, read exactly as :func:`connection.exchange` reads one."""
        try:
            reply = sanitize.reply(codec.load_frame(body), body)  # nothing raw goes further than this line
        except codec.CodecError as exc:
            raise connection.Garbled(f"an unreadable reply ({exc})") from None
        if reply.get("id") != request_id:
            raise connection.Garbled("an answer out of turn")
        return reply

    def _keep_output(self, reply: dict, scripted: bool = True) -> None:
        output = reply.get("output")
        if output and output["total"]:
            # Printed outside any script's replies (at import, say): no digest covers it, so a
            # check that shows it is never learned, nor answered from what another student printed.
            self.printed_unscripted = self.printed_unscripted or not scripted
            head, tail, total = output["head"], output["tail"], output["total"]
            self._output.append({"head": head, "tail": tail, "total": total,
                                 "cut": max(total - len(head) - len(tail), 0)})

    def _failure(self, failure: Exception, what: str, cpu_limit: float, retried: bool) -> tuple[Exception, int]:
        """What the student reads about a request the worker did not answer, and the timeouts it
        counts; the worker is ended."""
        if isinstance(failure, connection.Overrun):
            self._restart()
            counted = int(failure.cpu or failure.budget_first or retried)  # a first stop by the wall clock alone gets its retry first
            spent = min(self._budgets, key=lambda b: b.remaining()) if failure.budget_first and not failure.cpu else None
            return wording.timeout(what, self.path.name, failure.cpu, cpu_limit, failure.wall, spent, retried), counted
        if isinstance(failure, connection.Garbled):
            self._restart()
            return wording.garbled(what, str(failure)), 0
        return self._crashed(what, f"its worker {failure}" if isinstance(failure, connection.NotStarted) else ""), 0

    def _crashed(self, what: str, not_started: str = "") -> Exception:
        process = self._process
        failure = ending.start_failure(process) if process else None
        code = process.poll() if process else None
        if process is not None:
            try:  # its stderr is complete once it has exited; one never ready may still be waiting
                process.wait(timeout=0.1 if not_started else 1)
            except Exception:  # noqa: BLE001
                pass
            code = process.poll()
            self.last_stderr = ending.stderr_tail(process)
        self._restart()
        if failure is None and not_started:  # bwrap started, but nothing in it got as far as the student's code
            said = next((line for line in self.last_stderr.splitlines() if line.startswith("bwrap:")), "")
            failure = f"{not_started}: {said[:300]}" if said else not_started
        return wording.crash(what, code, failure)


def waited(problem: Exception) -> bool:
    """A call stopped by the wall clock alone, the first time: it is tried once more, alone."""
    return isinstance(problem, StudentTimeout) and getattr(problem, "waited", False)
