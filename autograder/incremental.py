"""Grading only what changed: each student's exercises whose key has no stored result.

The plan compares every exercise's key (:mod:`autograder.fingerprint`) with the store; the
exercises left are graded in groups that share an exercise list (usually one group: everyone's
six, or one changed grader's one), each result stored the moment it arrives. A student's result is
then assembled from the store alone, so an interrupted run, a rerun and an uninterrupted run all
end with the same results.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from . import interrupts
from .fingerprint import REPLACED, exercise_key, exercise_keys
from .parse import submitted_files, was_submitted
from .limits import Limits
from .model import Exercise, ExerciseResult, Status, StudentResult, host_failed, student_result
from .runner import Settings, failed_student
from .store import ResultStore, Stored
from .submission import MAX_SOURCE_BYTES

# grade(students, settings, on_done): deliver_batch with its jobs, or deliver_on_dask; each result
# goes to on_done, which stores it, and nothing is returned (a class is never held whole)
Grade = Callable[[list[tuple[str, Path]], Settings, Callable[[StudentResult], None]], None]


@dataclass(frozen=True)
class Task:
    """One student's exercises to grade now (all of them: ``exercises`` is the course's names)."""

    student_id: str
    folder: Path
    exercises: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """The run's students, each assembled from the store when asked for, and which of them were graded now.

    Only the students whose grading failed (kept out of the store) are held; a class of any size
    is then read back one student at a time.
    """

    folders: dict[str, Path]  # the run's students, in order
    graded_now: frozenset[str]
    course: tuple[Exercise, ...]
    keys: dict[str, dict[str, str]]
    store: ResultStore
    failed: dict[str, StudentResult]  # stamped with the run's end

    def result(self, student_id: str) -> StudentResult:
        """The student's result as the store holds it now (or the failure this run gave)."""
        result = self.failed.get(student_id) or assemble(student_id, self.folders[student_id], self.course,
                                                         self.keys[student_id], self.store)
        if result is None:
            changed = self.changed(student_id)
            replaced = any(key.startswith(REPLACED) for key in self.keys[student_id].values())
            result = failed_student(student_id, self.course, (
                "This submission's folder was replaced by another while the class was being graded, so no "
                "result is shown; grade the class again once the folders stay put." if changed and replaced else
                f"{changed[0]}.py changed while this submission was being graded, so no result is shown; "
                "grade the class again once the files stay put." if changed else
                "Not every exercise of this submission was graded; grade it again."))  # a grader returned fewer
        return result

    def changed(self, student_id: str) -> list[str]:
        """The exercises graded for bytes their file no longer holds: it changed after the run read it."""
        if student_id in self.failed:
            return []
        stored = self.store.read(student_id)
        return sorted(name for name, key in self.keys[student_id].items() if name in stored and stored[name].key != key)

    @property
    def results(self) -> tuple[StudentResult, ...]:
        """Every student's result at once (a small class, a test)."""
        return tuple(self.result(sid) for sid in self.folders)


def _reusable(stored: Stored | None, key: str) -> bool:
    # An exercise whose grader could not load, or a check the grader itself failed on (a worker
    # the host would not start), is the host's problem of that day: try it again.
    return (stored is not None and stored.key == key and not (stored.result.status == "error" and not stored.result.tests)
            and not host_failed(stored.result))


def plan(students: list[tuple[str, Path]], course: tuple[Exercise, ...], graders: dict[str, str],
         store: ResultStore, limits: Limits, regrade: frozenset[str] = frozenset(), anchor: str = "",
         pins: dict[str, tuple[int, int] | None] | None = None) -> tuple[list[Task], dict[str, dict[str, str]]]:
    """What must be graded now (all of ``regrade``'s exercises), and every student's exercise keys
    (read through each student's pinned folder: :func:`autograder.submission.pin_folders`)."""
    tasks, keys = [], {}
    for sid, folder in students:
        keys[sid] = exercise_keys(folder, course, graders, MAX_SOURCE_BYTES, anchor, (pins or {}).get(sid))
        stored = {} if sid in regrade else store.read(sid)
        todo = tuple(e.name for e in course if not _reusable(stored.get(e.name), keys[sid][e.name]))
        kept = [stored[e.name] for e in course if e.name not in todo]
        if todo and kept and not _fits_budget(kept, len(todo), limits):
            todo = tuple(e.name for e in course)
        if todo:
            tasks.append(Task(sid, folder, todo))
    return tasks, keys


def _fits_budget(kept: list[Stored], regraded: int, limits: Limits) -> bool:
    """Whether grading ``regraded`` exercises beside the ``kept`` ones gives what grading the whole would.

    A submission's time budget is shared by its exercises, so a kept result stands only where the
    budget cannot have run out in either run: none of the kept ones timed out (the budget may have
    been spent by the exercises now regraded), and twice what the kept ones took (waits are wall
    time: a busier host takes longer), with the most each regraded exercise may take and a call's
    slack beyond it, stays within it. Else the whole submission is graded again.
    """
    if any(_timed_out(s.result) or not s.result.budget_spent >= 0 for s in kept):  # a record that cannot hold: not trusted
        return False
    spent = sum(s.result.budget_spent for s in kept)
    return 2 * spent + regraded * limits.exercise_seconds + limits.wall_slack <= limits.submission_seconds


def _timed_out(exercise: ExerciseResult) -> bool:
    return any(t.status == Status.TIMEOUT for t in exercise.tests)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def grade_planned(tasks: list[Task], settings: Settings, keys: dict[str, dict[str, str]], graders: dict[str, str],
                  store: ResultStore, grade: Grade, sandbox: str,
                  on_done: Callable[[StudentResult], None]) -> dict[str, StudentResult]:
    """Grade every task, storing each result as it arrives; returns the results not stored (grader failures).

    Each exercise is stored under the key of the file its worker ran, which is the planned key
    unless the file changed after the plan read it: then the result is kept for the bytes that
    earned it, and this run shows the student as changed during grading (:meth:`Outcome.result`).
    """
    course_names = tuple(keys[tasks[0].student_id]) if tasks else ()
    failed: dict[str, StudentResult] = {}

    def keep(result: StudentResult) -> None:
        interrupts.check()  # graded while Ctrl-C was pressed: maybe half graded, never kept
        if result.status == "error":  # the grader failed, not the student: not kept, tried again next run
            failed[result.id] = result
        else:
            stored = store.read(result.id)
            now = _now()
            for exercise in result.exercises:
                key = keys[result.id][exercise.name]
                if exercise.graded_entry:  # "": never read (its checks failed before): the result holds for any bytes
                    key = exercise_key(graders[exercise.name], exercise.graded_entry)
                stored[exercise.name] = Stored(key, exercise, now, sandbox)
            store.write(result.id, stored)
        on_done(result)

    groups: dict[tuple[str, ...], list[Task]] = {}
    for task in tasks:
        groups.setdefault(task.exercises, []).append(task)
    for exercises, group in groups.items():
        chosen = replace(settings, exercises=() if exercises == course_names else exercises)
        grade([(t.student_id, t.folder) for t in group], chosen, keep)
    return failed


def assemble(student_id: str, folder: Path, course: tuple[Exercise, ...], keys: dict[str, str],
             store: ResultStore) -> StudentResult | None:
    """The student's result from the store, as one run grading every exercise would give; None if incomplete."""
    stored = store.read(student_id)
    if any(stored.get(e.name) is None or stored[e.name].key != keys[e.name] for e in course):
        return None
    parts = [stored[e.name] for e in course]
    exercises = tuple(replace(p.result, title=e.title) for p, e in zip(parts, course))
    submitted = submitted_files(folder, course)
    if any(was_submitted(e.name, e.graded_entry, submitted) for e in exercises):
        result = student_result(student_id, exercises)
    else:
        result = student_result(student_id, exercises, "empty", "The submission holds none of the exercise files.")
    latest = max(parts, key=lambda p: p.graded)
    return replace(result, graded=latest.graded, sandbox=latest.sandbox)


def grade_incrementally(students: list[tuple[str, Path]], course: tuple[Exercise, ...], graders: dict[str, str],
                        settings: Settings, store: ResultStore, grade: Grade, sandbox: str,
                        regrade: frozenset[str] = frozenset(), on_start: Callable[[int], None] = lambda total: None,
                        on_done: Callable[[StudentResult], None] = lambda result: None,
                        pins: dict[str, tuple[int, int] | None] | None = None) -> Outcome:
    """The run's students (see :class:`Outcome`), grading only the exercises the store does not already hold (and ``regrade``'s)."""
    limits = Limits.for_call_timeout(settings.call_timeout, settings.memory_mb << 20)
    tasks, keys = plan(students, course, graders, store, limits, regrade, settings.anchor, pins)
    on_start(len(tasks))
    failed = grade_planned(tasks, settings, keys, graders, store, grade, sandbox, on_done)
    finished = _now()
    failed = {sid: replace(result, graded=finished, sandbox=sandbox) for sid, result in failed.items()}
    return Outcome(dict(students), frozenset(t.student_id for t in tasks), course, keys, store, failed)
