"""What a student reads when their file cannot be run as asked: one place for every such sentence.

Pure functions from what the worker or the grader observed (an error record from the worker, a
timeout, how the process ended) to the :mod:`autograder.problems` exception a check raises. The
client (:mod:`autograder.client`) decides what happened; this module only says it, in the
student's terms, with a hint that points at the idea.
"""

from __future__ import annotations

from .budget import Budget
from .model import SANDBOX_FAILED
from .problems import (BadReply, FunctionMissing, ImportFailed, NotImplementedYet, SandboxFailed, StudentRaised,
                       StudentTimeout, WorkerCrashed)

SLOW_HINT = ("A correct solution takes milliseconds per call: look for sleep(), a loop that never ends, "
             "or work that grows too fast with the input.")
WAIT_HINT = "Look for sleep(), input(), or waiting on something that never comes."


def seconds(value: float) -> str:
    return f"{value:g} second" + ("" if value == 1 else "s")


def sentence_start(phrase: str) -> str:
    return phrase[0].upper() + phrase[1:] if phrase.startswith("the ") else phrase


def import_problem(filename: str, error: object) -> ImportFailed:
    """Why ``filename`` could not be imported, from the worker's error record."""
    error = error if isinstance(error, dict) else {}
    if error.get("kind") == "syntax":
        return ImportFailed(f"{filename} has a syntax error on line {error.get('line')}: {error.get('message')}.",
                            "Run the file with python to see the error in context.",
                            str(error.get("traceback", "")))
    if error.get("kind") == "exit":
        return ImportFailed(f"{filename} calls sys.exit() while it is being imported.",
                            "Remove top-level code that exits; only define functions.")
    return ImportFailed(f"{filename} raised {error.get('type') or 'an exception'} while being imported: {error.get('message')}",
                        "Code at the top level of your file runs on import; keep it to imports and definitions.",
                        str(error.get("traceback", "")))


def call_problem(filename: str, function: str, error: object) -> Exception:
    """Why a call of ``function`` gave no value, from the worker's error record."""
    error = error if isinstance(error, dict) else {}
    kind, exc_type, message = error.get("kind"), error.get("type") or "an exception", error.get("message", "")
    detail = error.get("traceback", "")
    if kind == "missing":
        return FunctionMissing(f"{filename} has no function named {function}.",
                               "Keep the function name and signature from the stub.")
    if kind == "exit":
        return StudentRaised(f"{function}() called sys.exit().", "Return a value instead of exiting.", detail, "SystemExit")
    if exc_type == "NotImplementedError" and not message:  # the stub's bare raise, not a deliberate one
        return NotImplementedYet(f"{function}() is not implemented yet (it raises NotImplementedError).",
                                 "Replace the `raise NotImplementedError` line with your code.")
    if kind == "protocol":
        # The message is the worker's, which student code can write: a hidden check shows none of it.
        problem = BadReply(f"{function}() could not be run: {message}")
        problem.hidden_message = f"{function}() could not be run: its worker broke the grader's protocol."
        return problem
    hint = RECURSION_HINT if exc_type == "RecursionError" else ""
    return StudentRaised(f"{function}() raised {exc_type}: {message}".rstrip(": "), hint, detail, exc_type,
                         tuple(error.get("mro") or ()))


# A recursion one layer per call is right in maths and stops at Python's limit: the specs' stacks
# go far deeper, so the student is told why, not only that it raised.
RECURSION_HINT = ("Python stops a recursion about 1,000 calls deep, and the grader's stacks go far deeper: "
                  "go through the layers with a loop (or a single power), not one recursive call per layer.")


def is_raised(error: object) -> bool:
    """Whether the record says the student's own code raised (what :func:`call_problem` trusts the worker on)."""
    error = error if isinstance(error, dict) else {}
    return error.get("kind") not in ("missing", "exit", "protocol") and not (
        error.get("type") == "NotImplementedError" and not error.get("message", ""))


def dishonest_worker(filename: str) -> BadReply:
    problem = BadReply(f"{filename} changed how the worker reports exceptions, so no exception it raises can be "
                       "trusted.", "Raise exceptions normally; do not patch the grader's worker.")
    problem.hidden_message = problem.message  # the grader's words alone
    return problem


def garbled(what: str, how: str) -> BadReply:
    """The worker's reply could not be trusted: ``how`` is "an unreadable reply (...)" or "an answer out of turn"."""
    return BadReply(f"The worker sent {how} during {what}; its output cannot be trusted.")


def out_of_tries(filename: str, tries: int) -> StudentTimeout:
    return StudentTimeout(f"Not run: {filename} already ran out of time {tries} times.", "Look for a loop that never ends.")


def out_of_budget(filename: str, spent: Budget) -> StudentTimeout:
    return StudentTimeout(f"Not run: {filename} already ran out of time: your code used up the "
                          f"{seconds(spent.seconds)} it may run for {spent.scope}.", SLOW_HINT)


def timeout(what: str, filename: str, cpu: bool, cpu_limit: float, wall: float, spent: Budget | None,
            retried: bool) -> StudentTimeout:
    """A call or an import stopped: by its CPU time, a spent budget (``spent``), or the wall clock alone."""
    start = sentence_start(what)
    if cpu:
        return StudentTimeout(f"{start} did not finish within {seconds(cpu_limit)} of computing time.",
                              "Look for a loop that never ends, or work that grows too fast with the input.")
    if spent is not None:
        return StudentTimeout(f"{start} was stopped: {filename} ran out of time, having used up the "
                              f"{seconds(spent.seconds)} it may run for {spent.scope}.", SLOW_HINT)
    stopped = StudentTimeout(f"{start} did not finish within {seconds(wall)}"
                             f"{', twice,' if retried else ''} while using little computing time.", WAIT_HINT)
    stopped.waited = True  # the wall clock alone stopped it: worth one more try in a fresh worker
    return stopped


def crash(what: str, code: int | None, sandbox_failure: str | None) -> Exception:
    """The worker died during ``what``: the host's fault when its sandbox never started, else the code's."""
    if sandbox_failure is not None:
        return SandboxFailed(f"{SANDBOX_FAILED} during {what} ({sandbox_failure}); this is not your fault.",
                             "Tell your instructor; this check's score is withheld.")
    # The exit code and the signal are the student's to choose: a hidden check names neither
    # (a byte of its inputs per check otherwise), a public one names both.
    if code is not None and code < 0:
        reason, hidden = f"was killed by signal {-code}", "was killed by a signal"
        hint = "Signal 9 or 24 usually means it used too much memory or CPU time."
    else:
        reason = f"ended the process (exit code {code})" if code is not None else "ended the process"
        hidden = "ended the process"
        hint = "Do not call os._exit() or kill the process; return a value instead."
    crashed = WorkerCrashed(f"Your code {reason} during {what}.", hint)
    crashed.hidden_message = f"Your code {hidden} during {what}."
    return crashed
