"""What a student may see of hidden checks: pass or fail, as in the student release.

A hidden check compares with the reference on random inputs; its message names those inputs,
the reference's outputs and what the student's code printed on them. Shown on every push of a
pull request, with a fresh seed each time, that would hand a student the reference's answers
bit by bit. So wherever a student reads a full-kit result (CI, Classroom, Gradescope before
grades are published), a hidden check keeps its name, sentence, points and verdict, and nothing else.
"""

from __future__ import annotations

from dataclasses import replace

from .model import CheckResult, StudentResult

HIDDEN_VERDICTS = {
    "failed": "This hidden check did not pass: on its random inputs your function disagrees with the reference.",
    "error": "Your code raised an error on this hidden check's inputs.",
    "timeout": "Your code ran out of time on this hidden check's inputs.",
}


def hide_check(check: CheckResult) -> CheckResult:
    if check.visibility != "hidden" or check.status in ("passed", "pending"):
        return replace(check, output=None) if check.visibility == "hidden" else check
    message = HIDDEN_VERDICTS.get(check.status, "This hidden check did not pass.")
    return replace(check, message=message, hint="", detail="", output=None)


def student_view(student: StudentResult) -> StudentResult:
    """``student`` with every hidden check reduced to its verdict.

    An exercise whose file is missing ran no code, so its "not submitted" messages stay.
    """
    exercises = tuple(e if e.status == "missing" else replace(e, tests=tuple(hide_check(t) for t in e.tests))
                      for e in student.exercises)
    return replace(student, exercises=exercises)
