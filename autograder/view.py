"""The view-model every report template and the terminal renderer read: words, not raw results.

Everything a report shows is decided here (labels, icons, percentages, what is folded, which
checks are listed, which output and how much of it), so the terminal, Markdown and HTML forms
agree on every decision and only lay it out. Student-controlled text is made inert here too:
control characters become visible escapes and every field is bounded, whatever the format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .model import CheckResult, ExerciseResult, Output, Status, StudentResult
from .plotview import PlotView, plot_views
from .render.inert import shown_id

LEGEND = tuple((status.icon, status.label) for status in Status)

LINE_CHARS = 1000  # one line of a message; a 10 MB line is cut to this, a grader's sentence never is
OUTPUT_LINE_CHARS = 300  # one line of what the student's code printed
FIELD_CHARS = 6000  # one message or traceback
DETAIL_LINES = 8  # the end of a traceback, where the student's line is
OUTPUT_LINES = 5  # lines of printed output kept at each end

# C0/C1 controls (ANSI escapes included) and the format characters that reorder or hide text
# (bidi overrides, zero-width joiners): shown as visible escapes, never passed to a terminal or page.
_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


@dataclass(frozen=True)
class CheckView:
    name: str
    description: str
    status: str
    label: str
    icon: str
    points: str
    message: str  # empty when there is nothing to say (passed, hidden-pending, or said once for the exercise)
    hint: str
    detail: str  # the last DETAIL_LINES lines of a traceback
    output: str  # what the student's code printed, first and last lines, cuts marked
    hidden: bool


@dataclass(frozen=True)
class ExerciseView:
    name: str
    title: str
    status: str
    score: str
    percent: int
    message: str
    checks: tuple[CheckView, ...]  # listed one by one unless folded; empty when the file was not graded
    pending: str
    all_passed: bool
    folded: bool  # every graded check passed: one line, the list behind a fold
    folded_text: str
    common_problem: str = ""
    common_hint: str = ""
    common_detail: str = ""
    plots: tuple[PlotView, ...] = ()  # drawn in HTML only; text forms keep words
    # The known mistake the function behaved exactly like: said first, and its hint replaces the
    # checks' own hints, which were written for other causes and would tell other stories.
    diagnosis: str = ""
    diagnosis_explanation: str = ""
    diagnosis_hint: str = ""


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
    summary: str = ""  # "33%, 1 of 3 checks passed"
    footer: str = ""  # "seed 41 · isolation: bubblewrap"
    rerun: str = ""
    legend: tuple[tuple[str, str], ...] = LEGEND


def points(value: float) -> str:
    """2.0 -> '2', 1.5 -> '1.5'."""
    return f"{value:g}"


def printable(text: object, limit: int = FIELD_CHARS, line_chars: int = LINE_CHARS) -> str:
    """Student text made inert and bounded: visible escapes for controls, long lines cut."""
    text = str(text).replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > limit:
        text = text[:limit] + f" … ({len(text) - limit:,} more characters)"
    text = _INVISIBLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                          text)
    return "\n".join(line if len(line) <= line_chars else
                     f"{line[:line_chars]} … ({len(line) - line_chars:,} more characters)" for line in text.split("\n"))


def output_text(output: Output | None) -> str:
    """The first and last OUTPUT_LINES lines a check printed, with every cut said in place."""
    if output is None:
        return ""
    lines = printable(output.head, 2 * FIELD_CHARS, OUTPUT_LINE_CHARS).split("\n")
    tail = printable(output.tail, 2 * FIELD_CHARS, OUTPUT_LINE_CHARS).split("\n") if output.tail else []
    if output.cut:
        shown = lines[:OUTPUT_LINES] + [f"[... {output.cut:,} characters cut ...]"] + tail[-OUTPUT_LINES:]
    else:
        lines = (lines + tail) if tail else lines
        shown = lines if len(lines) <= 2 * OUTPUT_LINES else \
            lines[:OUTPUT_LINES] + [f"[... {len(lines) - 2 * OUTPUT_LINES:,} lines cut ...]"] + lines[-OUTPUT_LINES:]
    return "\n".join(shown).strip("\n")


def _last_lines(text: str, count: int) -> str:
    lines = printable(text).strip().splitlines()
    return "\n".join((["…"] if len(lines) > count else []) + lines[-count:])


def _percent(score: float, maximum: float) -> int:
    return round(100 * score / maximum) if maximum else 0


def _pending_text(pending_points: float) -> str:
    return f"{points(pending_points)} more points from hidden checks, graded after submission" if pending_points else ""


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def check_view(check: CheckResult) -> CheckView:
    status = Status(check.status)
    label, icon = status.label, status.icon
    shown = "—" if status is Status.PENDING else f"{points(check.score)}/{points(check.max_score)}"
    quiet = status in (Status.PASSED, Status.PENDING)
    return CheckView(
        name=check.name, description=printable(check.description or check.name.replace("_", " ")),
        status=check.status, label=label, icon=icon, points=shown,
        message="" if quiet else printable(check.message), hint="" if check.status == "passed" else printable(check.hint),
        detail="" if quiet else _last_lines(check.detail, DETAIL_LINES),
        # What a passing check printed is noise; where a check did not pass it may be the clue.
        output="" if quiet else output_text(check.output), hidden=check.visibility == "hidden",
    )


def exercise_view(exercise: ExerciseResult) -> ExerciseView:
    checks = tuple(check_view(c) for c in exercise.tests)
    graded = [c for c in exercise.tests if c.status != "pending"]
    all_passed = bool(graded) and all(c.status == "passed" for c in graded)
    if exercise.status != "graded":
        # A missing file or a grader that could not load: its message is the whole story.
        checks = ()
    # One cause behind every failure (a stub, an import error) is said once, not once per check.
    # A cause the results store once for the exercise is one such.
    failing = [c for c in checks if c.status not in ("passed", "pending")]
    common = None
    if exercise.problem is not None and exercise.status == "graded":
        common = exercise.problem
        failing = [c for c in failing if not (c.message or c.hint or c.detail)]
    elif len(failing) > 1 and len({(c.message, c.hint, c.detail) for c in failing}) == 1:
        common = failing[0]
    if common is not None:
        checks = tuple(replace(c, message="", hint="", detail="", output="") if c in failing else c for c in checks)
    diagnosis = exercise.diagnosis if exercise.status == "graded" else None
    if diagnosis is not None:
        checks = tuple(replace(c, hint="") for c in checks)
    return ExerciseView(
        name=exercise.name, title=exercise.title, status=exercise.status,
        score=f"{points(exercise.score)}/{points(exercise.max_score)}",
        percent=_percent(exercise.score, exercise.max_score), message=printable(exercise.message), checks=checks,
        pending=_pending_text(exercise.pending_points), all_passed=all_passed,
        folded=all_passed and exercise.status == "graded",
        folded_text=f"All {_plural(len(graded), 'check')} passed" if all_passed else "",
        common_problem=common.message if common else "", common_hint=common.hint if common else "",
        common_detail=common.detail.strip() if common else "",
        plots=plot_views(exercise.plots),
        diagnosis=printable(diagnosis.headline) if diagnosis else "",
        diagnosis_explanation=printable(diagnosis.explanation) if diagnosis else "",
        diagnosis_hint=printable(diagnosis.hint) if diagnosis else "",
    )


def report_view(student: StudentResult, seed: int, isolation: str, created: str = "", version: str = "") -> ReportView:
    checks = [c for e in student.exercises for c in e.tests if c.status != "pending"]
    passed = sum(c.status == "passed" for c in checks)
    percent = _percent(student.score, student.max_score)
    return ReportView(
        student_id=printable(shown_id(student.id), OUTPUT_LINE_CHARS), status=student.status,
        score=f"{points(student.score)}/{points(student.max_score)}",
        percent=percent, message=printable(" ".join(filter(None, (student.message, *student.notices)))),
        exercises=tuple(exercise_view(e) for e in student.exercises), pending=_pending_text(student.pending_points),
        seed=seed, isolation=isolation, created=created, version=version,
        passed_checks=passed, total_checks=len(checks),
        summary=f"{percent}%, {passed} of {_plural(len(checks), 'check')} passed",
        footer=f"seed {seed} · isolation: {isolation}" + (f" · {created}" if created else ""),
        rerun=f"Rerun these exact checks with --seed {seed}." + (f" Gradient kit {version}." if version else ""),
    )
