"""The class dashboard's figures gathered one student at a time, for a class too large to hold.

:class:`ClassTally` keeps, per student, a row and a few numbers, and per check three compact
arrays (who, passed or not, the rest of the total), never a student's results. Its view is
:func:`autograder.classview.dashboard_view`'s for the same students in the same order: the
same helpers on the same lists, so the page and summary.json come out byte for byte alike.
"""

from __future__ import annotations

import statistics
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from .classview import (FLAG_BELOW, MIN_STUDENTS_FOR_FLAG, CheckStat, DashboardView, ExerciseAverage,
                        Misconception, StudentRow, Trouble, _diagnosis_name, _distribution, _graded, _percent,
                        _trouble, correlation)
from .model import BatchResult, StudentResult
from .view import points, printable


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
        if self.names is None:
            self.names = tuple(e.name for e in student.exercises)
        index = len(self.ids)
        self.ids.append(student.id)
        self.titles.update((e.name, e.title) for e in student.exercises)
        self.rows.append(StudentRow(
            id=printable(student.id), link=link, score=student.score,
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
        ranked = sorted(self.hits.items(), key=lambda item: (-len(item[1]), item[0]))
        return tuple(Misconception(printable(name), len(ids), tuple(printable(i) for i in ids)) for name, ids in ranked)


def tally_view(batch: BatchResult, link: Callable[[str], str]) -> DashboardView:
    """The tally's dashboard of ``batch``'s students (what the test compares with dashboard_view)."""
    tally = ClassTally()
    for student in batch.students:
        tally.add(student, link(student.id))
    return tally.view(batch)
