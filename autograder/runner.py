"""Running the graders: one student or a shard of students per pytest session in this process
(session.py), or a class across a pool of trusted processes (pool.py).

pytest and every check run here, on the trusted side; student code only ever runs in the
workers that the plugin's ``student`` fixture starts.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable


from . import sandbox, scriptcache
from .model import GRADER_FAILED, Exercise, StudentResult, exercise_result, load_course, student_result
from .parse import parse_run
from .sanitize import text
from .scratch import scratch
from .settings import Settings
from .session import exercises_for, pytest_args, run_pytest, run_quietly, run_shard, targets
from .shard import ShardLoop, ShardReport


def grade_one(student_id: str, folder: Path, settings: Settings) -> StudentResult:
    """Grade one student's folder in a session of its own; never raises: a failure of the grader itself is a row too."""
    refused = _refused(student_id, folder, settings)
    if refused is not None:
        return refused
    try:
        if settings.scripts:  # answered from the class's scripts, verdicts known where they are (fastpath.py)
            reports: list[dict] = []
            run_shard([folder], settings, lambda index, report: reports.append(report))
            if reports:
                return _parsed(student_id, folder, reports[0], settings)
        return _parsed(student_id, folder, run_pytest(folder, replace(settings, scripts="")), settings)
    except Exception as exc:  # a grader bug must cost one row, not the batch
        return _grader_failed(student_id, settings, exc)


def grade_shard(students: list[tuple[str, Path]], settings: Settings,
                on_done: Callable[[StudentResult], None] = lambda result: None) -> list[StudentResult]:
    """Grade several students in one pytest session, each exactly as :func:`grade_one` would; raises only
    what ``on_done`` raises.

    ``on_done`` gets each result as soon as it is known. If the session fails (a grader that does
    not load, a bug in the grader), the students it did not finish are graded one session each.
    """
    results: dict[int, StudentResult] = {}

    def finish(index: int, result: StudentResult) -> None:
        results[index] = result
        on_done(result)

    gradable = []
    for index, (student_id, folder) in enumerate(students):
        refused = _refused(student_id, folder, settings)
        if refused is None:
            gradable.append(index)
        else:
            finish(index, refused)

    def reported(position: int, report: dict) -> None:
        student_id, folder = students[gradable[position]]
        try:
            result = _parsed(student_id, folder, report, settings)
        except Exception as exc:  # noqa: BLE001 - this student's row, not the shard's
            result = _grader_failed(student_id, settings, exc)
        try:
            finish(gradable[position], result)
        except Exception as exc:
            undelivered.append(exc)
            raise

    undelivered: list[Exception] = []  # what on_done raised: pytest would swallow it as its own error
    if gradable:
        try:
            run_shard([students[index][1] for index in gradable], settings, reported)
        except Exception:  # noqa: BLE001 - whoever it did not finish is graded alone below
            pass
        if undelivered:  # the caller could not take a result (a full disk): its error, not the grader's
            raise undelivered[0]
    for index in gradable:
        if index not in results:
            finish(index, grade_one(*students[index], settings))
    return [results[index] for index in range(len(students))]


def _refused(student_id: str, folder: Path, settings: Settings) -> StudentResult | None:
    """A row for a submission that is not a real folder: a link could point at the reference or a
    classmate's folder, so it is never followed."""
    if os.path.islink(folder) or not os.path.isdir(folder):
        what = "a symbolic link" if os.path.islink(folder) else "not a folder"
        return failed_student(student_id, load_course(settings.graders_dir),
                              f"The submission {student_id!r} is {what}, so it was not graded.")
    return None


def _parsed(student_id: str, folder: Path, report: dict, settings: Settings) -> StudentResult:
    return parse_run(student_id, folder, report, settings)


def _grader_failed(student_id: str, settings: Settings, exc: Exception) -> StudentResult:
    return failed_student(student_id, load_course(settings.graders_dir),
                          f"{GRADER_FAILED} while grading this submission ({type(exc).__name__}: {text(str(exc), 200)}).")


def failed_student(student_id: str, course: tuple[Exercise, ...], message: str) -> StudentResult:
    exercises = tuple(exercise_result(e.name, e.title, (), "error", message) for e in course)
    return student_result(student_id, exercises, "error", message)


def _recorded_run(folder: Path, settings: Settings, into: Path) -> dict | None:
    """Grade ``folder`` in one session, call by call, keeping every check's calls and, for each
    check it passed, its answers in the file ``into`` (script.py, verdicts.py); its report."""
    settings = replace(settings, scripts="")
    args = pytest_args(targets(settings, [folder]), folder, settings) + [f"--record-scripts={into}"]
    reports: list[dict] = []
    report = ShardReport()
    run_quietly(args, [report, ShardLoop([folder], report, lambda index, taken: reports.append(taken),
                                          exercises_for(settings))], settings.graders_dir)
    return reports[0] if reports else None


def record_scripts(settings: Settings, into: Path) -> str:
    """Grade the reference once, keeping its calls and answers in the file ``into``; its path, or ""
    where there is no reference or it could not be graded."""
    if settings.reference_dir is None or not settings.reference_dir.is_dir():
        return ""
    try:  # every exercise's scripts
        _recorded_run(settings.reference_dir, replace(settings, exercises=(), only_submitted=False, budget_spent=0.0), into)
    except KeyboardInterrupt:
        raise
    except Exception:  # noqa: BLE001 - then every check runs call by call: slower, the same verdicts
        return ""
    return str(into) if into.is_file() else ""


def grade_recording(student_id: str, folder: Path, settings: Settings, into: Path) -> StudentResult:
    """Grade one folder as :func:`grade_one` does (call by call), recording it as
    :func:`record_scripts` records the reference (where ``into`` could be written).

    For ``check`` in a release, which has no reference to record: the next check of the same
    files is answered from them (quickcheck.py). They are the student's own calls and answers,
    in the student's own cache, and tell nothing the checks' code does not say itself."""
    refused = _refused(student_id, folder, settings)
    if refused is not None:
        return refused
    try:
        report = _recorded_run(folder, settings, into)
        if report is not None:
            return _parsed(student_id, folder, report, settings)
    except KeyboardInterrupt:
        raise
    except Exception:  # noqa: BLE001 - graded again the plain way, which says what is wrong
        pass
    into.unlink(missing_ok=True)
    return grade_one(student_id, folder, settings)


def with_scripts(settings: Settings, folder: Path) -> Settings:
    """``settings`` with the class's scripts, recorded into ``folder`` unless it has them already."""
    if settings.scripts or not settings.use_scripts:
        return settings
    return replace(settings, scripts=record_scripts(settings, folder / "scripts.json"))


def deliver_batch(students: list[tuple[str, Path]], settings: Settings, jobs: int,
                  on_done: Callable[[StudentResult], None]) -> None:
    """Grade every student, a shard of them per pytest session and ``jobs`` sessions at a time, and
    hand each result to ``on_done`` as soon as it is known. Nothing is held here once handed over, so
    a class of any size grades in the same memory (``grade`` stores each result as it comes)."""
    if settings.use_scripts and not settings.scripts and sandbox.user_files_out_of_reach(settings.isolation):
        # No student can write the user's cache here, so the class's scripts are kept there as
        # check keeps them (scriptcache.py): a rerun or a resumed run records nothing again.
        kept = scriptcache.scripts_for(settings, record_scripts)
        if kept:
            _deliver_batch(students, replace(settings, scripts=kept), jobs, on_done)
            return
    with scratch("scripts") as folder:  # hidden inputs: the run's own, removed with it
        _deliver_batch(students, with_scripts(settings, folder), jobs, on_done)


def grade_batch(students: list[tuple[str, Path]], settings: Settings, jobs: int,
                on_done: Callable[[StudentResult], None] = lambda result: None) -> list[StudentResult]:
    """:func:`deliver_batch`, with every result also returned in the order given: the whole class
    held at once, for a few students (validation, mutants, tests)."""
    return collected(students, lambda keep: deliver_batch(students, settings, jobs, keep), on_done)


def collected(students: list[tuple[str, Path]], deliver: Callable[[Callable[[StudentResult], None]], None],
              on_done: Callable[[StudentResult], None]) -> list[StudentResult]:
    """What ``deliver`` hands over, each passed on to ``on_done`` and kept, in the order of ``students``."""
    results: dict[str, StudentResult] = {}

    def keep(result: StudentResult) -> None:
        results[result.id] = result
        on_done(result)
    deliver(keep)
    return [results[sid] for sid, _folder in students]


def _deliver_batch(students: list[tuple[str, Path]], settings: Settings, jobs: int,
                   on_done: Callable[[StudentResult], None]) -> None:
    if jobs <= 1 or len(students) <= 1:
        for shard in shards(students, settings.shard_size, 1):
            grade_shard(shard, settings, on_done)
        return
    from .pool import grade_in_pool  # the pool grades with grade_shard: imported when first needed
    with tempfile.NamedTemporaryFile(prefix="gradient-kit-quiet-") as lock:
        grade_in_pool(students, replace(settings, quiet_lock=lock.name), jobs, on_done)


def shards(students: list[tuple[str, Path]], size: int, jobs: int) -> list[list[tuple[str, Path]]]:
    """Consecutive shards of at most ``size`` students, small enough that every job gets one."""
    size = max(1, min(size, math.ceil(len(students) / max(jobs, 1))))
    return [students[start:start + size] for start in range(0, len(students), size)]
