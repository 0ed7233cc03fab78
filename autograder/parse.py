"""From pytest-json-report's raw report of one student's run to :mod:`autograder.model` results."""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from .model import (GRADER_FAILED, PENDING_LABEL, STATUSES, CheckResult, Diagnosis, Exercise, ExerciseResult, Output, Problem,
                    ResultsFormatError, ENTRY_FIELD, SPENT_FIELD, Status, _build, exercise_result, load_course, student_result, StudentResult)
from .plotdata import Plot, plot_from
from .submission import MISSING

_OUTCOME_STATUS = {"passed": Status.PASSED, "failed": Status.FAILED, "error": Status.ERROR, "skipped": Status.PENDING}


def _check(test: dict) -> CheckResult:
    meta = test.get("metadata") or {}
    status = meta.get("status") or _OUTCOME_STATUS.get(test.get("outcome"), "error")
    status = Status(status) if status in STATUSES else Status.ERROR
    points = float(meta.get("points", 1.0))
    output = meta.get("output")
    message = meta.get("message", "")
    if not meta.get("status") and status is Status.ERROR:
        message = f"{GRADER_FAILED} while setting up this check; this is not your fault."
    return CheckResult(
        name=str(meta.get("check") or test.get("nodeid", "?").rsplit("::", 1)[-1]),
        description=str(meta.get("description", "")),
        score=points if status is Status.PASSED else 0.0,
        max_score=points,
        status=status,
        message=str(message),
        hint=str(meta.get("hint", "")),
        visibility=str(meta.get("visibility", "public")),
        detail=str(meta.get("detail", "")),
        output=Output(output["head"], output.get("tail", ""), int(output.get("cut", 0))) if output else None,
    )


def _broken_modules(report: dict) -> set[str]:
    broken = set()
    for collector in report.get("collectors", []):
        if collector.get("outcome") == "failed":
            node = str(collector.get("nodeid", ""))
            broken.add(node.rsplit("/", 1)[-1].removesuffix(".py").removeprefix("test_"))
    return broken


def _pending(entry: dict) -> CheckResult:
    points = float(entry.get("points", 1.0))
    return CheckResult(str(entry["name"]), str(entry.get("description", "")), 0.0, points, Status.PENDING,
                       PENDING_LABEL, visibility="hidden")


def parse_exercises(report: dict, course: tuple[Exercise, ...], submitted: set[str],
                    hidden: dict | None = None) -> tuple[ExerciseResult, ...]:
    tests_by_exercise: dict[str, list[CheckResult]] = defaultdict(list)
    problems: dict[str, Problem] = {}
    plots: dict[str, tuple[Plot, ...]] = {}
    diagnoses: dict[str, Diagnosis] = {}
    spent: dict[str, float] = defaultdict(float)
    graded: dict[str, set[str]] = defaultdict(set)
    for test in report.get("tests", []):
        meta = test.get("metadata") or {}
        exercise = meta.get("exercise")
        if exercise is None:
            exercise = str(test.get("nodeid", "")).split("::")[0].rsplit("/", 1)[-1].removesuffix(".py").removeprefix("test_")
        spent[exercise] = max(spent[exercise], _seconds(meta.get(SPENT_FIELD)))
        if isinstance(meta.get(ENTRY_FIELD), str):
            graded[exercise].add(meta[ENTRY_FIELD][:64])
        check = _check(test)
        # said once for the exercise, not copied into every check; unless the host's (a file the grader
        # could not read): each such check must say so, to be withheld and graded again
        if meta.get("exercise_wide") and not check.grader_failed:
            problems.setdefault(exercise, Problem(check.message, check.hint, check.detail))
            check = replace(check, message="", hint="", detail="")
        tests_by_exercise[exercise].append(check)
        if (test.get("metadata") or {}).get("plots"):
            plots[exercise] = _plots(test["metadata"]["plots"])
        if meta.get("diagnosis"):
            diagnoses[exercise] = _diagnosis(meta["diagnosis"])
    for exercise, entries in (hidden or {}).items():
        tests_by_exercise[exercise].extend(_pending(entry) for entry in entries)
    broken = _broken_modules(report)
    results, entries = [], {}
    for exercise in course:
        tests = tuple(tests_by_exercise.get(exercise.name, ()))
        entry = entries[exercise.name] = _entry(graded.get(exercise.name, set()))
        if exercise.name in broken or not tests:
            results.append(ExerciseResult(exercise.name, exercise.title, 0.0, 0.0, "error", (),
                                          message=f"{GRADER_FAILED} to load for this exercise; this is not your "
                                                  "fault and it scores nothing either way."))
        elif not was_submitted(exercise.name, entry, submitted):
            results.append(exercise_result(exercise.name, exercise.title, tests, "missing",
                                           f"{exercise.name}.py was not submitted.", problems.get(exercise.name)))
        else:
            results.append(exercise_result(exercise.name, exercise.title, tests, problem=problems.get(exercise.name),
                                           plots=plots.get(exercise.name, ()), diagnosis=diagnoses.get(exercise.name)))
    return tuple(replace(r, budget_spent=spent.get(r.name, 0.0), graded_entry=entries[r.name]) for r in results)


def was_submitted(exercise: str, graded_entry: str, submitted: set[str]) -> bool:
    """Whether the exercise's file was there when it was graded: as its worker read it, where it was
    read (the folder may have changed since), else as ``submitted`` (the folder looked at) says."""
    return graded_entry != MISSING if graded_entry else exercise in submitted


def _entry(seen: set[str]) -> str:
    """The file an exercise's workers ran, as its digest; two files for one exercise make a digest no file has."""
    return next(iter(seen)) if len(seen) == 1 else "several files" if seen else ""


def _seconds(raw: object) -> float:
    """The budget an exercise spent, as the plugin wrote it; anything else counts as none."""
    return float(raw) if isinstance(raw, (int, float)) and math.isfinite(raw) and raw > 0 else 0.0


def _plots(raw: object) -> tuple[Plot, ...]:
    """Plots the plugin recorded; malformed ones are dropped (a picture is never worth a row)."""
    try:
        return tuple(plot_from(p) for p in raw[:8])
    except (KeyError, TypeError, ValueError, AttributeError):
        return ()


def _diagnosis(raw: object) -> Diagnosis | None:
    """The plugin's diagnosis; a malformed one is dropped (no diagnosis is better than a wrong one)."""
    try:
        return _build(Diagnosis, raw, "diagnosis")
    except ResultsFormatError:
        return None


def parse_student(student_id: str, report: dict, course: tuple[Exercise, ...], submitted: set[str],
                  hidden: dict | None = None) -> StudentResult:
    exercises = parse_exercises(report, course, submitted, hidden)
    if not any(was_submitted(e.name, e.graded_entry, submitted) for e in exercises):
        return student_result(student_id, exercises, "empty", "The submission holds none of the exercise files.")
    return student_result(student_id, exercises)


def submitted_files(folder: Path, course: tuple[Exercise, ...]) -> set[str]:
    """Stems of the exercise files present (a link or a folder counts: its checks explain why it fails)."""
    return {e.name for e in course if os.path.lexists(folder / f"{e.name}.py")}


def load_hidden_manifest(graders_dir: Path) -> dict:
    """In a student release: the hidden checks stripped from each grader, by name and points."""
    path = graders_dir / "hidden.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def parse_run(student_id: str, folder: Path, report: dict, settings) -> StudentResult:
    """One student's result from the report of their run under ``settings`` (runner.Settings)."""
    course = load_course(settings.graders_dir)
    submitted = submitted_files(folder, course)
    if settings.only_submitted or settings.exercises:
        course = tuple(e for e in course if e.name in (settings.exercises or submitted))
    return parse_student(student_id, report, course, submitted, load_hidden_manifest(settings.graders_dir))
