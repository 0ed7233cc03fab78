"""The view-model every report template and the terminal renderer read: words, not raw results.

Everything a report shows is decided here (labels, icons, percentages, which output to show), so
templates only lay it out and hold no grading logic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import CheckResult, ExerciseResult, Output, Status, StudentResult


@dataclass(frozen=True)
class CheckView:
    name: str
    description: str
    status: str
    label: str
    icon: str
    points: str
    message: str
    hint: str
    detail: str
    output: str
    hidden: bool


@dataclass(frozen=True)
class ExerciseView:
    name: str
    title: str
    status: str
    score: str
    percent: int
    message: str
    checks: tuple[CheckView, ...]
    pending: str
    all_passed: bool
    common_problem: str = ""
    common_hint: str = ""
    common_detail: str = ""


@dataclass(frozen=True)
class ReportView:
    student_id: str
    status: str
    score: str
    percent: int
    message: str
    exercises: tuple[ExerciseView, ...]
    pending: str
    seed: int
    isolation: str
    created: str
    version: str
    passed_checks: int
    total_checks: int


def points(value: float) -> str:
    """2.0 -> '2', 1.5 -> '1.5'."""
    return f"{value:g}"


def output_text(output: Output | None) -> str:
    if output is None:
        return ""
    if not output.cut:
        return output.head + output.tail
    return f"{output.head}\n[... {output.cut:,} characters cut ...]\n{output.tail}"


def _percent(score: float, maximum: float) -> int:
    return round(100 * score / maximum) if maximum else 0


def _pending_text(pending_points: float) -> str:
    return f"{points(pending_points)} more points from hidden checks, graded after submission" if pending_points else ""


def check_view(check: CheckResult) -> CheckView:
    status = Status(check.status)
    label, icon = status.label, status.icon
    shown = "—" if status is Status.PENDING else f"{points(check.score)}/{points(check.max_score)}"
    return CheckView(
        name=check.name, description=check.description or check.name.replace("_", " "), status=check.status,
        label=label, icon=icon, points=shown, message=check.message, hint=check.hint,
        detail=check.detail.strip(), output=output_text(check.output), hidden=check.visibility == "hidden",
    )


def exercise_view(exercise: ExerciseResult) -> ExerciseView:
    checks = tuple(check_view(c) for c in exercise.tests)
    graded = [c for c in exercise.tests if c.status != "pending"]
    # One cause behind every failure (a stub, a missing file, an import error) is said once,
    # not once per check.
    failing = [c for c in checks if c.status not in ("passed", "pending")]
    common = failing[0] if len(failing) > 1 and len({(c.message, c.hint, c.detail) for c in failing}) == 1 else None
    if common is not None:
        checks = tuple(c if c.status in ("passed", "pending") else
                       replace(c, message="", hint="", detail="", output="") for c in checks)
    return ExerciseView(
        name=exercise.name, title=exercise.title, status=exercise.status,
        score=f"{points(exercise.score)}/{points(exercise.max_score)}",
        percent=_percent(exercise.score, exercise.max_score), message=exercise.message, checks=checks,
        pending=_pending_text(exercise.pending_points),
        all_passed=bool(graded) and all(c.status == "passed" for c in graded),
        common_problem=common.message if common else "", common_hint=common.hint if common else "",
        common_detail=common.detail if common else "",
    )


def report_view(student: StudentResult, seed: int, isolation: str, created: str = "", version: str = "") -> ReportView:
    checks = [c for e in student.exercises for c in e.tests if c.status != "pending"]
    return ReportView(
        student_id=student.id, status=student.status,
        score=f"{points(student.score)}/{points(student.max_score)}",
        percent=_percent(student.score, student.max_score), message=student.message,
        exercises=tuple(exercise_view(e) for e in student.exercises), pending=_pending_text(student.pending_points),
        seed=seed, isolation=isolation, created=created, version=version,
        passed_checks=sum(c.status == "passed" for c in checks), total_checks=len(checks),
    )
