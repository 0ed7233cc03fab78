"""What a check's outcome tells the student: a verdict (status, message, hint, detail) from how its test ended.

A hidden check says that it failed and how, never on what: a comparison's values, the student's own
exception message (which may echo its arguments), and anything else the student's code chose about
how it failed (a type it made up, an exit code, a traceback, the worker's words) stay on the trusted side.
"""

from __future__ import annotations

import builtins

import pytest

from .model import GRADER_FAILED, PENDING_LABEL, Status
from .problems import CheckFailed, StudentProblem, StudentRaised

HIDDEN_FAILED = "Your function did not match on the hidden random inputs (they are not shown, so the check stays a test)."
HIDDEN_RAISED = "Your code raised {type} on one of the hidden random inputs (they are not shown)."


# The built-in types a plain mistake in numeric code raises, the only ones a hidden check names:
# each type a student's code may choose among is a little of a hidden input it could spell out,
# about 4 bits a check here against 6 with every built-in type.
NAMED_TYPES = frozenset({
    "ArithmeticError", "AssertionError", "AttributeError", "FloatingPointError", "IndexError", "KeyError",
    "LookupError", "MemoryError", "NameError", "NotImplementedError", "OverflowError", "RecursionError",
    "RuntimeError", "StopIteration", "SystemExit", "TypeError", "UnboundLocalError", "ValueError",
    "ZeroDivisionError",
})


def _builtin_name(exc: StudentRaised) -> str:
    """The type a hidden check may name: one of NAMED_TYPES, and a real built-in one, never a name
    the student's code made up (``type(f"Leak_{fan_in}", (ValueError,), {})`` spelt out a hidden input)."""
    name = exc.exc_type or ""
    builtin = getattr(builtins, name, None) if name in NAMED_TYPES else None
    if (isinstance(builtin, type) and issubclass(builtin, BaseException)
            and tuple(exc.exc_mro[:1]) in ((f"builtins.{name}",), (name,))):
        return name
    return "an exception"


def verdict(excinfo: pytest.ExceptionInfo | None, hidden: bool = False, pending: bool = False) -> dict:
    """What one check's outcome says: its status, message, hint and detail, from how its test ended."""
    if excinfo is None:
        return {"status": "passed", "message": "", "hint": "", "detail": ""}
    exc = excinfo.value
    if isinstance(exc, StudentRaised) and hidden:
        return {"status": exc.status, "message": HIDDEN_RAISED.format(type=_builtin_name(exc)),
                "hint": exc.hint, "detail": ""}
    if isinstance(exc, StudentProblem):
        # A public call may be named with its arguments (a timeout says which call hung).
        message = (exc.hidden_message or exc.message) if hidden else (exc.public_message or exc.message)
        # A detail (a traceback, the worker's words) is the student's code's to write: none on a hidden check.
        return {"status": exc.status, "message": message, "hint": exc.hint, "detail": "" if hidden else exc.detail}
    if isinstance(exc, CheckFailed):
        return {"status": "failed", "message": HIDDEN_FAILED if hidden else exc.message, "hint": exc.hint, "detail": ""}
    if excinfo.errisinstance(pytest.skip.Exception):
        if pending:
            return {"status": Status.PENDING.value, "message": PENDING_LABEL, "hint": "", "detail": ""}
        return {"status": "skipped", "message": str(getattr(exc, "msg", "")), "hint": "", "detail": ""}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        message = [HIDDEN_FAILED] if hidden else str(getattr(exc, "msg", "") or exc).strip().splitlines()
        return {"status": "failed", "message": message[0] if message else "Check failed.", "hint": "", "detail": ""}
    # On a hidden check the exception's text may hold what the student's values made it say (a
    # count, a shape): its type alone is named there, as for the student's own exceptions.
    said = type(exc).__name__ if hidden else f"{type(exc).__name__}: {str(exc)[:200]}"
    return {"status": "error", "internal": True,
            "message": f"{GRADER_FAILED} ({said}); this is not your fault.",
            "hint": "Tell your instructor; the check's score is withheld.", "detail": ""}
