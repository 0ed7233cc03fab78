"""The result GitHub Classroom's ``autograding-grading-reporter`` reads: one test per check.

Written from the reporter's source (github-education-resources/autograding-grading-reporter,
src/main.js and src/notify-classroom.js): each runner's step output is base64 of a JSON object
``{"version", "status", "max_score", "tests": [{"name", "status", "score", "message"}]}``; the
reporter reads it from the environment variable ``<RUNNER>_RESULTS``, adds up every test's
``score`` against the runner's ``max_score`` (the total Classroom records) and fails the check when
``status`` is ``"fail"`` or ``"error"``. Hidden checks not graded yet (a release) are left out:
they are neither passed nor failed.

Every name and message is one line of plain text with no ``##[``: the reporter prints them in its
own step, where no ``stop-commands`` of ours holds, and the runner reads a line that begins
``::error`` or ``::add-mask::`` as a workflow command, and the older form ``##[error]`` anywhere
in a line.
"""

from __future__ import annotations

import base64
import json

from .model import StudentResult
from .render.inert import one_line

_STATUS = {"passed": "pass", "failed": "fail", "error": "error", "timeout": "error"}


def classroom_result(student: StudentResult, passed: bool) -> dict:
    tests = []
    for exercise in student.exercises:
        for check in exercise.tests:
            if check.status == "pending":
                continue
            message = " ".join(part for part in (check.message, f"Hint: {check.hint}" if check.hint else "") if part)
            tests.append({
                "name": _inert(f"{exercise.name}: {check.description or check.name}")[:200],
                "status": _STATUS.get(check.status, "error"),
                "score": check.score,
                "max_score": check.max_score,
                "message": _inert(message or exercise.message),
            })
    return {"version": 1, "status": "pass" if passed else "fail",
            "max_score": sum(t["max_score"] for t in tests), "tests": tests}


def _inert(text: str) -> str:
    """One line, with no runner command in it: "##[" is broken by a blank, which a reader skips."""
    return one_line(text).replace("##[", "## [")


def encode_result(result: dict) -> str:
    """The step output's value: base64 of compact JSON, one line."""
    return base64.b64encode(json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()).decode()
