"""One submission's exercises graded on several cores at once, as ``check`` grades a student's folder.

A class keeps every core busy with a student each; a student checking their own folder would
leave all but one idle, waiting on the exercises one after another. They are independent (each
has its own worker, seeds and exercise budget), so ``check`` grades them in groups, one pytest
session per group, each in a forked trusted process, and puts the groups' results back together
in the course's order: the same result as one session, sooner. The submission's whole-time budget
is one :class:`~autograder.budget.SharedBudget` all groups charge, so a slow submission runs out
of it as it would in one session.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
from dataclasses import replace
from pathlib import Path

import pytest

from . import sandbox
from .budget import SharedBudget
from .model import Exercise, StudentResult, student_result
from .plugin import SHARED_SUBMISSION_BUDGET
from .runner import Settings, grade_one, load_course


class _Shared:
    """A plugin handing the session the budget its submission shares with the other groups."""

    def __init__(self, budget: SharedBudget) -> None:
        self.budget = budget

    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[SHARED_SUBMISSION_BUDGET] = self.budget


def groups(course: tuple[Exercise, ...], chosen: tuple[str, ...], count: int) -> list[tuple[str, ...]]:
    """The chosen exercises (all when none is) dealt into at most ``count`` groups, in course order
    within each: the first to the first group, the second to the second, and so on."""
    names = [e.name for e in course if not chosen or e.name in chosen]
    count = max(1, min(count, len(names)))
    return [tuple(names[start::count]) for start in range(count)]


def _start_group_process(parent: int) -> None:
    """Dies with ``check``, and leaves Ctrl-C to it (the terminal sends it to the whole group)."""
    sandbox.die_with_parent(parent)
    signal.signal(signal.SIGINT, lambda _signum, _frame: os._exit(130))


def grade_split(student_id: str, folder: Path, settings: Settings, jobs: int) -> StudentResult:
    """The student's result, as :func:`grade_one` gives it, its exercises graded ``jobs`` groups at a time."""
    course = load_course(settings.graders_dir)
    dealt = groups(course, settings.exercises, jobs)
    if len(dealt) == 1:
        return grade_one(student_id, folder, settings)
    context = multiprocessing.get_context("fork")  # the imports and drawn cases are this process's already
    limits = sandbox.Limits.for_call_timeout(settings.call_timeout, settings.memory_mb << 20)
    shared = (_Shared(SharedBudget(limits.submission_seconds, "your whole submission", context)),)
    with concurrent.futures.ProcessPoolExecutor(len(dealt) - 1, mp_context=context, initializer=_start_group_process,
                                                initargs=(os.getpid(),)) as pool:
        others = [pool.submit(grade_one, student_id, folder, replace(settings, exercises=group), shared)
                  for group in dealt[1:]]
        parts = [grade_one(student_id, folder, replace(settings, exercises=dealt[0]), shared)]
        for future in others:
            try:
                parts.append(future.result())
            except Exception:  # noqa: BLE001  (a group process lost: its exercises in this one, as before)
                parts.append(grade_one(student_id, folder, replace(settings, exercises=dealt[len(parts)]), shared))
    return _merged(student_id, parts, course)


def _merged(student_id: str, parts: list[StudentResult], course: tuple[Exercise, ...]) -> StudentResult:
    """One result from the groups': a group the grader failed on fails the whole, as it would in one session."""
    failed = next((p for p in parts if p.status == "error"), None)
    if failed is not None:
        return failed
    graded = {e.name: e for part in parts for e in part.exercises}
    exercises = tuple(graded[e.name] for e in course if e.name in graded)
    return student_result(student_id, exercises, parts[0].status, parts[0].message)
