"""The class dashboard's view-model: every figure on ``OUT/index.html`` and in ``OUT/summary.json``.

A pure function of a :class:`~autograder.model.BatchResult`. The figures are computed once here,
so the page and the JSON can never disagree, and the template only lays them out. They are
gathered one student at a time (:class:`ClassTally`), so a writer streaming a class too large to
hold keeps per student a row and a few numbers, and per check three compact arrays, never a
student's results.
"""

from __future__ import annotations

import math
import statistics
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from .model import BatchResult, StudentResult
from .render.inert import shown_id
from .view import points, printable

BINS = 10  # score distribution in steps of 10 %
MIN_STUDENTS_FOR_FLAG = 5  # below this a negative correlation is noise, not a finding
FLAG_BELOW = -0.1  # a check whose passing goes with a *lower* rest score than failing it


@dataclass(frozen=True)
class Bin:
    label: str  # "90–100 %"
    count: int
    height: int  # percent of the tallest bin, for the bar chart


@dataclass(frozen=True)
class ExerciseAverage:
    name: str
    title: str
    average: str  # "3.4/10"
    percent: int
    submitted: int  # students who handed the file in


@dataclass(frozen=True)
class CheckStat:
    exercise: str
    name: str
    description: str
    attempts: int  # students who submitted the exercise and got a verdict for this check
    passed: int
    pass_rate: int  # percent
    discrimination: float | None  # point-biserial r of passing against the rest of the total; None if undefined
    discrimination_text: str
    flagged: bool  # strong students fail it more than weak ones
    failing: tuple[str, ...]  # student ids


@dataclass(frozen=True)
class Misconception:
    name: str
    count: int
    students: tuple[str, ...]


@dataclass(frozen=True)
class Trouble:
    student: str
    link: str
    what: str


@dataclass(frozen=True)
class StudentRow:
    id: str
    link: str
    score: float
    score_text: str
    percent: int
    status: str
    exercises: tuple[str, ...]  # one score per exercise, in course order


@dataclass(frozen=True)
class DashboardView:
    seed: int
    isolation: str
    created: str
    version: str
    students: int
    graded: int
    mean: str
    median: str
    distribution: tuple[Bin, ...]
    exercises: tuple[ExerciseAverage, ...]
    checks: tuple[CheckStat, ...]  # hardest first
    misconceptions: tuple[Misconception, ...]  # most frequent first
    trouble: tuple[Trouble, ...]
    rows: tuple[StudentRow, ...]
    exercise_names: tuple[str, ...]


def _percent(score: float, maximum: float) -> int:
    return round(100 * score / maximum) if maximum else 0


def correlation(passed: list[int], totals: list[float]) -> float | None:
    """Point-biserial correlation of a 0/1 outcome with a score; None when either does not vary."""
    n = len(passed)
    if n < 2 or len(set(passed)) < 2 or len(set(totals)) < 2:
        return None
    mean_p, mean_t = sum(passed) / n, sum(totals) / n
    cov = sum((p - mean_p) * (t - mean_t) for p, t in zip(passed, totals))
    var_p = sum((p - mean_p) ** 2 for p in passed)
    var_t = sum((t - mean_t) ** 2 for t in totals)
    return cov / math.sqrt(var_p * var_t)


def _graded(student: StudentResult) -> bool:
    # A student whose grading failed has no score to learn from; an empty folder scores a real 0.
    return student.status != "error"


def _distribution(percents: list[int]) -> tuple[Bin, ...]:
    counts = [0] * BINS
    for percent in percents:
        counts[min(percent * BINS // 100, BINS - 1)] += 1
    tallest = max(counts) or 1
    step = 100 // BINS
    return tuple(Bin(f"{i * step}–{(i + 1) * step} %", c, round(100 * c / tallest)) for i, c in enumerate(counts))


def _diagnosis_name(exercise) -> str:
    """The catalogued mistake an exercise was diagnosed with (autograder.diagnose), or "".

    Named with its exercise: two exercises can share a title ("one layer too few").
    """
    value = getattr(exercise, "diagnosis", None)
    title = str(getattr(value, "title", value) or "") if value else ""
    name = getattr(exercise, "name", "")
    return f"{name}: {title}" if title and name else title


def _misconceptions(students: list[StudentResult]) -> tuple[Misconception, ...]:
    hits: dict[str, list[str]] = defaultdict(list)
    for student in students:
        for exercise in student.exercises:
            name = _diagnosis_name(exercise)
            if name:
                hits[name].append(student.id)
    return _ranked(hits)


def _ranked(hits: dict[str, list[str]]) -> tuple[Misconception, ...]:
    """The catalogued mistakes found, the most frequent first, with who made them."""
    ranked = sorted(hits.items(), key=lambda item: (-len(item[1]), item[0]))
    return tuple(Misconception(printable(name), len(ids), tuple(printable(i) for i in ids)) for name, ids in ranked)


def href(path: str) -> str:
    """A report's relative path as the address a page links it by. A browser decodes ``%62`` in an
    address (``a%62.html`` would open classmate ``ab``'s report) and ends the path at ``#``: those
    two are encoded. ``?``, ``:`` and ``\\`` never reach a report's name (see :mod:`autograder.names`)."""
    return path.replace("%", "%25").replace("#", "%23")


def _trouble(student: StudentResult, link: str) -> Trouble | None:
    if student.status == "error":
        return Trouble(printable(student.id), link, printable(student.message) or "grading failed")
    timed_out = [e.name for e in student.exercises if any(c.status == "timeout" for c in e.tests)]
    broken = [e.name for e in student.exercises if e.status == "error"]
    parts = ([f"timed out in {', '.join(timed_out)}"] if timed_out else []) + \
            ([f"grader could not run {', '.join(broken)}"] if broken else [])
    return Trouble(printable(student.id), link, "; ".join(parts)) if parts else None


@dataclass
class _CheckTally:
    students: array = field(default_factory=lambda: array("l"))  # indices into ClassTally.ids
    passed: bytearray = field(default_factory=bytearray)
    rests: array = field(default_factory=lambda: array("d"))  # the student's total without this check


@dataclass
class _ExerciseTally:
    scores: list[float] = field(default_factory=list)
    maximum: float | None = None
    submitted: int = 0


class ClassTally:
    """Add students in the class's order with :meth:`add`; :meth:`view` is then the dashboard."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.names: tuple[str, ...] | None = None  # the first student's exercises, as the dashboard shows them
        self.titles: dict[str, str] = {}
        self.percents: list[int] = []
        self.exercises: dict[str, _ExerciseTally] = defaultdict(_ExerciseTally)
        self.checks: dict[tuple[str, str], _CheckTally] = defaultdict(_CheckTally)
        self.described: dict[tuple[str, str], str] = {}
        self.hits: dict[str, list[str]] = defaultdict(list)
        self.rows: list[StudentRow] = []
        self.trouble: list[Trouble] = []

    def add(self, student: StudentResult, link: str) -> None:
        """``link``: the student's report, relative to the page (a path, encoded here as an address)."""
        link = href(link)
        if self.names is None:
            self.names = tuple(e.name for e in student.exercises)
        index = len(self.ids)
        self.ids.append(student.id)
        self.titles.update((e.name, e.title) for e in student.exercises)
        self.rows.append(StudentRow(
            id=printable(shown_id(student.id)), link=link, score=student.score,
            score_text=f"{points(student.score)}/{points(student.max_score)}",
            percent=_percent(student.score, student.max_score), status=student.status,
            exercises=tuple(next((points(e.score) for e in student.exercises if e.name == n), "0") for n in self.names)))
        trouble = _trouble(student, link)
        if trouble is not None:
            self.trouble.append(trouble)
        if _graded(student):
            self._add_graded(student, index)

    def _add_graded(self, student: StudentResult, index: int) -> None:
        self.percents.append(_percent(student.score, student.max_score))
        for exercise in student.exercises:
            tally = self.exercises[exercise.name]
            tally.scores.append(exercise.score)
            tally.maximum = exercise.max_score if tally.maximum is None else max(tally.maximum, exercise.max_score)
            tally.submitted += exercise.status == "graded"
            name = _diagnosis_name(exercise)
            if name:
                self.hits[name].append(student.id)
            if exercise.status != "graded":
                continue  # a file not handed in says nothing about how hard a check is
            for check in exercise.tests:
                if check.status == "pending":
                    continue
                key = (exercise.name, check.name)
                self.described.setdefault(key, check.description or check.name)
                outcomes = self.checks[key]
                outcomes.students.append(index)
                outcomes.passed.append(check.status == "passed")
                outcomes.rests.append(student.score - check.score)

    def view(self, batch: BatchResult) -> DashboardView:
        """The dashboard of the students added, run as ``batch`` says (its own students are not read)."""
        names = self.names or ()
        averages = []
        for name in names:
            tally = self.exercises.get(name, _ExerciseTally())
            score = statistics.fmean(tally.scores) if tally.scores else 0.0
            maximum = tally.maximum if tally.maximum is not None else 0.0
            averages.append(ExerciseAverage(name, self.titles.get(name, name), f"{score:.1f}/{points(maximum)}",
                                            _percent(score, maximum), tally.submitted))
        percents = self.percents
        return DashboardView(
            seed=batch.seed, isolation=batch.sandbox or batch.isolation, created=batch.created, version=batch.version,
            students=len(self.ids), graded=len(percents),
            mean=f"{statistics.fmean(percents):.0f} %" if percents else "—",
            median=f"{statistics.median(percents):.0f} %" if percents else "—",
            distribution=_distribution(percents), exercises=tuple(averages), checks=self._check_stats(),
            misconceptions=self._misconceptions(), trouble=tuple(self.trouble), rows=tuple(self.rows),
            exercise_names=names)

    def _check_stats(self) -> tuple[CheckStat, ...]:
        stats = []
        for (exercise, name), outcomes in self.checks.items():
            passed, rests = list(outcomes.passed), list(outcomes.rests)
            r = correlation(passed, rests)
            stats.append(CheckStat(
                exercise=exercise, name=name, description=self.described[(exercise, name)], attempts=len(passed),
                passed=sum(passed), pass_rate=_percent(sum(passed), len(passed)), discrimination=r,
                discrimination_text="—" if r is None else f"{r:+.2f}",
                flagged=r is not None and r < FLAG_BELOW and len(passed) >= MIN_STUDENTS_FOR_FLAG,
                failing=tuple(printable(self.ids[i]) for i, p in zip(outcomes.students, passed) if not p)))
        return tuple(sorted(stats, key=lambda s: (s.pass_rate, s.exercise, s.name)))

    def _misconceptions(self) -> tuple[Misconception, ...]:
        return _ranked(self.hits)


def dashboard_view(batch: BatchResult, link: Callable[[str], str]) -> DashboardView:
    """The dashboard for ``batch``; ``link(student_id)`` is the relative path of a report."""
    tally = ClassTally()
    for student in batch.students:
        tally.add(student, link(student.id))
    return tally.view(batch)
