"""What can go wrong with a student's code, as exceptions a check can raise or let through.

Each carries the status it gives the check (``failed``, ``error`` or ``timeout``), a message in
the student's terms and a hint. Checks never catch these: the pytest plugin turns them into a
result, so every check gets the same wording for the same problem.
"""

from __future__ import annotations

from .model import Status


class StudentProblem(Exception):
    status = Status.ERROR
    public_message = ""  # the message naming the call's arguments, for public checks only
    hidden_message = ""  # the message a hidden check shows where ``message`` holds what student code chose

    def __init__(self, message: str, hint: str = "", detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.detail = detail


class SubmissionMissing(StudentProblem):
    status = Status.FAILED


class SubmissionUnreadable(StudentProblem):
    status = Status.ERROR


class ImportFailed(StudentProblem):
    status = Status.ERROR


class FunctionMissing(StudentProblem):
    status = Status.FAILED


class NotImplementedYet(StudentProblem):
    status = Status.FAILED


class StudentRaised(StudentProblem):
    status = Status.ERROR

    def __init__(self, message: str, hint: str = "", detail: str = "", exc_type: str = "",
                 exc_mro: tuple[str, ...] = ()) -> None:
        super().__init__(message, hint, detail)
        self.exc_type = exc_type
        self.exc_mro = exc_mro or (exc_type,)

    def raised(self, name: str) -> bool:
        """Whether the student's exception is the built-in ``name`` or a subclass of it.

        The lineage crosses as qualified names, so a student's own class called ValueError that
        does not derive from the built-in one does not count.
        """
        return f"builtins.{name}" in self.exc_mro


class StudentTimeout(StudentProblem):
    status = Status.TIMEOUT


class WorkerCrashed(StudentProblem):
    status = Status.ERROR


class BadReply(StudentProblem):
    status = Status.ERROR
    # Its message may quote what the worker sent (a tag the decoder did not know, a frame's length):
    # all of it the student's code could have chosen to spell out a hidden input. A hidden check
    # shows this instead, unless the message was worded without any of it (wording.py).
    hidden_message = "Your code's worker sent a reply the grader cannot read or trust (what it held is not shown)."


class SandboxFailed(StudentProblem):
    """The sandbox itself did not start (bubblewrap's own error): the host's problem, never the student's."""

    status = "error"


class CheckFailed(AssertionError):
    """A check's verdict: what the student got, what was expected, and the likely misconception."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
