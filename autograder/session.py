"""One pytest session over the graders, in this process: its arguments, which graders it collects,
and how it is run quietly so that a Ctrl-C still reaches the caller.

Used by runner.py (grading, and recording the reference's scripts) and preflight.py (the host's proof).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Callable

import pytest
from pytest_jsonreport.plugin import JSONReport

from . import interrupts
from .model import load_course
from .parse import submitted_files
from .settings import Settings
from .shard import ShardLoop, ShardReport


def targets(settings: Settings, folders: list[Path]) -> list[str]:
    """The grader files to collect for these submissions (each runs only its own: see _exercises_for)."""
    if settings.exercises:
        return [str(settings.graders_dir / f"test_{name}.py") for name in settings.exercises]
    if settings.only_submitted:
        course = load_course(settings.graders_dir)
        present = [submitted_files(folder, course) for folder in folders]
        if all(present):
            return [str(settings.graders_dir / f"test_{name}.py") for name in sorted(set().union(*present))]
    return [str(settings.graders_dir)]


def exercises_for(settings: Settings) -> Callable[[Path], set[str] | None]:
    """Which exercises a submission's run checks (None: every one collected), as in a session of its own."""
    if not settings.only_submitted or settings.exercises:
        return lambda folder: None
    course = load_course(settings.graders_dir)
    return lambda folder: submitted_files(folder, course) or None


def pytest_args(targets: list[str], submission: Path, settings: Settings) -> list[str]:
    args = [
        *targets, f"-c={settings.graders_dir / 'pytest.ini'}",
        f"--rootdir={settings.graders_dir}", "-q", "--tb=line", "--json-report-file=none",
        # Its end of session runs gc.collect five times, about 0.3 s of every session with numpy
        # loaded; an exception nobody could raise (in __del__, say) never decides a verdict here.
        "-p", "no:unraisableexception",
        # The kit's own test suite runs under pytest-xdist; a grading session has no use for it, nor for
        # pytest-benchmark where it is installed beside the kit (it times nothing here, and warns under xdist).
        "-p", "no:xdist", "-p", "no:benchmark",
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


def run_quietly(args: list[str], plugins: list, graders_dir: Path) -> None:
    claim_grader_modules(graders_dir)
    interrupt = InterruptWatch()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        pytest.main(args, plugins=[*plugins, interrupt])
    interrupt.reraise()


def run_pytest(submission: Path, settings: Settings) -> dict:
    """Run every grader against one submission folder in a session of its own; pytest-json-report's raw report."""
    report_plugin = JSONReport()
    run_quietly(pytest_args(targets(settings, [submission]), submission, settings), [report_plugin],
                 settings.graders_dir)
    return report_plugin.report or {}


def run_shard(folders: list[Path], settings: Settings, on_report: Callable[[int, dict], None]) -> None:
    """Run every grader against each folder in turn, in one session (shard.py); each report as it is done."""
    report_plugin = ShardReport()
    loop = ShardLoop(folders, report_plugin, on_report, exercises_for(settings))
    run_quietly(pytest_args(targets(settings, folders), folders[0], settings), [report_plugin, loop],
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
