"""Running the graders: one student or a shard of students per pytest session in this process, or a
class across a pool of trusted processes (pool.py).

pytest and every check run here, on the trusted side; student code only ever runs in the
workers that the plugin's ``student`` fixture starts.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest
from pytest_jsonreport.plugin import JSONReport

from . import interrupts, sandbox, scriptcache
from .model import GRADER_FAILED, Exercise, StudentResult, exercise_result, load_course, student_result
from .parse import parse_run, submitted_files
from .sanitize import text
from .scratch import scratch
from .settings import Settings
from .shard import ShardLoop, ShardReport


def _targets(settings: Settings, folders: list[Path]) -> list[str]:
    """The grader files to collect for these submissions (each runs only its own: see _exercises_for)."""
    if settings.exercises:
        return [str(settings.graders_dir / f"test_{name}.py") for name in settings.exercises]
    if settings.only_submitted:
        course = load_course(settings.graders_dir)
        present = [submitted_files(folder, course) for folder in folders]
        if all(present):
            return [str(settings.graders_dir / f"test_{name}.py") for name in sorted(set().union(*present))]
    return [str(settings.graders_dir)]


def _exercises_for(settings: Settings) -> Callable[[Path], set[str] | None]:
    """Which exercises a submission's run checks (None: every one collected), as in a session of its own."""
    if not settings.only_submitted or settings.exercises:
        return lambda folder: None
    course = load_course(settings.graders_dir)
    return lambda folder: submitted_files(folder, course) or None


def _pytest_args(targets: list[str], submission: Path, settings: Settings) -> list[str]:
    args = [
        *targets, f"-c={settings.graders_dir / 'pytest.ini'}",
        f"--rootdir={settings.graders_dir}", "-q", "--tb=line", "--json-report-file=none",
        # Its end of session runs gc.collect five times, about 0.3 s of every session with numpy
        # loaded; an exception nobody could raise (in __del__, say) never decides a verdict here.
        "-p", "no:unraisableexception",
        "-W", "ignore::pytest.PytestAssertRewriteWarning",
        "--json-report-omit", "keywords", "streams", "log", "traceback", "warnings",
        f"--submission={submission}", f"--grade-seed={settings.seed}", f"--isolation={settings.isolation}",
        f"--call-timeout={settings.call_timeout}", f"--memory-mb={settings.memory_mb}",
        f"--bwrap={settings.bwrap}", f"--workers={settings.workers}",
    ]
    if settings.reference_dir is not None:
        args.append(f"--reference={settings.reference_dir}")
    if settings.catalogue_dir is not None:
        args.append(f"--catalogue={settings.catalogue_dir}")
    if settings.quiet_lock:
        args.append(f"--quiet-lock={settings.quiet_lock}")
    if settings.budget_spent > 0:
        args.append(f"--budget-spent={settings.budget_spent!r}")
    if settings.scripts:
        args.append(f"--scripts={settings.scripts}")
    if settings.anchor:
        args.append(f"--anchor={settings.anchor}")
    return args


def claim_grader_modules(graders_dir: Path) -> None:
    """Make the next session import these graders, not another kit's of the same names.

    pytest imports a grader under its file's base name and leaves it in ``sys.modules`` and its
    folder on ``sys.path``. A second folder of graders in the same process (``validate`` on another
    kit, a long-lived cluster worker after the graders changed) would meet the first one's
    ``test_scalar_chain`` and fail to collect it, and nobody could be graded on that exercise."""
    folder = os.path.realpath(graders_dir)
    for path in [*Path(folder).glob("test_*.py"), Path(folder) / "conftest.py"]:
        module = sys.modules.get(path.stem)
        origin = getattr(module, "__file__", None)
        if module is not None and (origin is None or os.path.realpath(origin) != str(path)):
            del sys.modules[path.stem]
    # pytest puts the folder in front again each session: a long-lived process would grow sys.path by
    # one entry per session, and every later import would search them all.
    sys.path[:] = [entry for entry in sys.path if not entry or os.path.realpath(entry) != folder]


def _run_quietly(args: list[str], plugins: list, graders_dir: Path) -> None:
    claim_grader_modules(graders_dir)
    interrupt = InterruptWatch()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        pytest.main(args, plugins=[*plugins, interrupt])
    interrupt.reraise()


def run_pytest(submission: Path, settings: Settings) -> dict:
    """Run every grader against one submission folder in a session of its own; pytest-json-report's raw report."""
    report_plugin = JSONReport()
    _run_quietly(_pytest_args(_targets(settings, [submission]), submission, settings), [report_plugin],
                 settings.graders_dir)
    return report_plugin.report or {}


def run_shard(folders: list[Path], settings: Settings, on_report: Callable[[int, dict], None]) -> None:
    """Run every grader against each folder in turn, in one session (shard.py); each report as it is done."""
    report_plugin = ShardReport()
    loop = ShardLoop(folders, report_plugin, on_report, _exercises_for(settings))
    _run_quietly(_pytest_args(_targets(settings, folders), folders[0], settings), [report_plugin, loop],
                 settings.graders_dir)


class InterruptWatch:
    """pytest swallows Ctrl-C and reports what it had; a half-graded student is no result, so pass it on."""

    def __init__(self) -> None:
        self.interrupted = False

    def pytest_keyboard_interrupt(self, excinfo) -> None:
        # pytest also stops itself this way after collection errors (Session.Interrupted): not a Ctrl-C.
        self.interrupted = excinfo.type is KeyboardInterrupt

    def reraise(self) -> None:
        if self.interrupted or interrupts.pressed():  # pressed: a Ctrl-C that pytest never saw
            raise KeyboardInterrupt


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
    args = _pytest_args(_targets(settings, [folder]), folder, settings) + [f"--record-scripts={into}"]
    reports: list[dict] = []
    report = ShardReport()
    _run_quietly(args, [report, ShardLoop([folder], report, lambda index, taken: reports.append(taken),
                                          _exercises_for(settings))], settings.graders_dir)
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
