"""The pytest plugin every grader runs under: options, markers, fixtures, and per-check verdicts.

A grader module ``graders/test_<exercise>.py`` (the file name names the exercise) writes plain
tests that take the ``student`` fixture. This plugin hands each test a :class:`~autograder.client.StudentModule`, seeds its
random inputs, skips hidden checks when the reference is absent, and writes each check's verdict
(status, message, hint, points, visibility, what the student printed) into the test's metadata,
which pytest-json-report carries to :mod:`autograder.parse`.
"""

from __future__ import annotations

import importlib.util
import inspect
import zlib
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from . import grading, interrupts, sandbox, sanitize
from .client import StudentModule
from .diagnose import diagnose
from .drawing import draw_plots
from .model import ENTRY_FIELD, PENDING_LABEL, SPENT_FIELD
from .probes import RecordingModule
from .properties import Cases, use_cache_home
from .outcome import verdict
from .problems import StudentProblem
from .zygote import WORKERS

PLOTS = pytest.StashKey[dict]()  # exercise -> plots recorded at the end of its module, until reported
DIAGNOSES = pytest.StashKey[dict]()  # exercise -> its diagnosis, made at the end of its module, until reported
FAILED = pytest.StashKey[dict]()  # exercise -> names of the checks it failed so far
SPENT = pytest.StashKey[dict]()  # exercise -> seconds of the submission's budget it took, until reported
ENTRY = pytest.StashKey[dict]()  # exercise -> digest of the file its worker ran, until reported


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder")
    group.addoption("--submission", default="exercises", help="folder holding the student's exercise files")
    group.addoption("--anchor", default="", help="the class's folder: below it no link is followed to a student's file")
    group.addoption("--reference", default="", help="folder of reference solutions; hidden checks are pending without it")
    group.addoption("--catalogue", default="", help="the catalogue of known mistakes; no diagnosis without it")
    group.addoption("--grade-seed", type=int, default=0, help="seed every random input derives from")
    group.addoption("--isolation", default="process", choices=sandbox.ISOLATIONS)
    group.addoption("--bwrap", default="", help="the bwrap binary the command line proved (bubblewrap isolation)")
    group.addoption("--call-timeout", type=float, default=sandbox.Limits.call_timeout)
    group.addoption("--memory-mb", type=int, default=sandbox.Limits.memory_bytes >> 20)
    group.addoption("--workers", default=WORKERS[0], choices=WORKERS,
                    help="fork each exercise's worker from a warm sandbox per submission (hatched in the session's "
                         "warm sandbox, or started for it), or start each afresh")
    group.addoption("--quiet-lock", default="", help="lock file the pool processes of one run share (runner.py)")
    group.addoption("--scripts", default="", help="the class's scripts and known verdicts (script.py), if any")
    group.addoption("--record-scripts", default="", help="write the scripts and verdicts of this run here")
    group.addoption("--budget-spent", type=float, default=0.0,
                    help="seconds of the first submission's time budget already taken (check's quick way)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "points(n): how many points the check is worth")
    config.addinivalue_line("markers", "hidden: compares with the reference solution; not shipped to students")
    use_cache_home()


def _reference_dir(config: pytest.Config) -> Path | None:
    value = config.getoption("--reference")
    return Path(value) if value and Path(value).is_dir() else None


def begin_submission(config: pytest.Config, folder: Path, following: bool = False) -> None:
    """Start grading ``folder`` in this session: nothing recorded for the previous submission remains
    (``following``: another comes after it, whose sandbox starts now)."""
    for key in (PLOTS, DIAGNOSES, FAILED, SPENT, ENTRY):
        if key in config.stash:
            del config.stash[key]
    grading.begin(config, folder, following)


def pytest_sessionstart(session: pytest.Session) -> None:
    if not session.config.option.collectonly:
        # The first submission's warm sandbox starts while pytest collects (numpy's import is its slow part).
        grading.run_of(session.config).spare = grading.started_zygote(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    grading.end(session.config)
    checks: dict[str, list[str]] = {}
    for item in session.items:
        checks.setdefault(exercise_of(item.module), []).append(item.nodeid)
    grading.save_recording(session.config, checks)


def pytest_unconfigure(config: pytest.Config) -> None:
    grading.end_run(config)


def submission_folder(config: pytest.Config) -> Path:
    return grading.now(config).folder


def exercise_of(module) -> str:
    """The exercise a grader module checks: ``test_<exercise>.py`` names it."""
    return Path(module.__file__).stem.removeprefix("test_")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each grader's hidden checks after its public ones, whatever order the module lists them in:
    a worker that was sent a hidden input holds it (its module's globals), and a public check after
    it in that worker could be answered with it, in the report."""
    first = {}
    for position, item in enumerate(items):
        first.setdefault(getattr(item, "module", None), position)
    order = {id(item): position for position, item in enumerate(items)}
    items.sort(key=lambda item: (first[getattr(item, "module", None)], item.get_closest_marker("hidden") is not None,
                                 order[id(item)]))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("hidden") and _reference_dir(item.config) is None:
        pytest.skip(PENDING_LABEL)


def _limits(config: pytest.Config) -> sandbox.Limits:
    return grading.limits(config)


@pytest.fixture(scope="module")
def student(request: pytest.FixtureRequest):
    """The student's file for this grader's exercise, running in a worker process."""
    exercise = exercise_of(request.module)
    module = grading.student_module(request.config, exercise)
    yield module
    module.check = ""  # the plots' calls below belong to no check
    try:
        if interrupts.pressed():  # stopping: the student's code is not called again (it may hang)
            return
        _diagnose(request.config, exercise, module)
        plots = getattr(request.module, "PLOTS", ())
        if plots and module._problem is None and not module._timeouts:  # broken or hanging: nothing to draw
            drawn = draw_plots(request.config, exercise, plots, module)
            if drawn:
                request.config.stash.setdefault(PLOTS, {})[exercise] = drawn
    finally:
        request.config.stash.setdefault(SPENT, {})[exercise] = module.budget_spent
        request.config.stash.setdefault(ENTRY, {})[exercise] = module.entry_digest
        module.close()


@pytest.fixture(autouse=True)
def _current_check(request: pytest.FixtureRequest):
    """Tells the student module which check its calls belong to (for the diagnosis, hidden ones
    are never shown; for its script, which answers them), and keeps the verdict of a check passed
    through its script (verdicts.py)."""
    if "student" not in request.fixturenames:
        yield
        return
    module = request.getfixturevalue("student")
    item = request.node
    module.check = getattr(item, "originalname", item.name)
    module.hidden = item.get_closest_marker("hidden") is not None
    module.begin_script(item.nodeid)
    module.record_key = item.nodeid
    yield
    module.check = module.record_key = ""
    digest = module.end_script()
    run = grading.run_of(request.config)
    passed = getattr(item, "_kit_passed", False)
    if run.recorder is not None:
        digest = run.recorder.digest(module.exercise, item.nodeid) if passed else None
        if digest is None:
            run.recorder.scripts.drop(module.exercise, item.nodeid)
    if passed and digest is not None and run.verdicts is not None and not getattr(item, "_kit_unscripted", False):
        run.verdicts.learn(item.nodeid, digest, getattr(item, "_kit_output", None))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if call.when == "call":
        item._kit_passed = report.passed
    if report.failed and call.when in ("setup", "call") and hasattr(item, "module"):
        name = getattr(item, "originalname", item.name)
        item.config.stash.setdefault(FAILED, {}).setdefault(exercise_of(item.module), set()).add(name)


def _diagnose(config: pytest.Config, exercise: str, module: RecordingModule) -> None:
    """On the trusted side, after the exercise's last check: which known mistake, if any, it behaved like."""
    failed = config.stash.get(FAILED, {}).get(exercise, set())
    catalogue, reference = config.getoption("--catalogue"), _reference_dir(config)
    if not failed or not catalogue or not Path(catalogue).is_dir() or reference is None or module.problem:
        return
    try:
        found = diagnose(exercise, module.probes, failed, Path(catalogue), reference)
    except Exception:  # noqa: BLE001 - a diagnosis is a bonus: its failure never costs the student's row
        return
    if found is not None:
        config.stash.setdefault(DIAGNOSES, {})[exercise] = asdict(found)


@pytest.fixture(scope="module")
def reference(request: pytest.FixtureRequest):
    """The reference solution, imported in the trusted process (hidden checks only)."""
    folder = _reference_dir(request.config)
    if folder is None:
        pytest.skip(PENDING_LABEL)
    exercise = exercise_of(request.module)
    spec = importlib.util.spec_from_file_location(f"_reference_{exercise}", folder / f"{exercise}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seed_for(config: pytest.Config, name: str) -> int:
    """A stable per-check seed: the run's seed mixed with the check's name."""
    return int(np.random.SeedSequence([config.getoption("--grade-seed"), zlib.crc32(name.encode())]).generate_state(1)[0])


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> np.random.Generator:
    """Random inputs for this check, reproducible from the run's recorded seed."""
    return np.random.default_rng(seed_for(request.config, request.node.name))


def _bounded(verdict: dict) -> dict:
    """Every stored text bounded and encodable, whatever a check or a student's value put in it."""
    return {**verdict, "message": sanitize.text(verdict["message"], 2 * sanitize.MESSAGE_CHARS),
            "hint": sanitize.text(verdict["hint"], sanitize.MESSAGE_CHARS),
            "detail": sanitize.text(verdict["detail"], sanitize.DETAIL_CHARS, keep="tail")}


@pytest.fixture
def cases(request: pytest.FixtureRequest) -> Cases:
    """Runs a check's properties over Hypothesis strategies, seeded from the run's recorded seed;
    a hidden check's failing case stays hidden."""
    return Cases(seed_for(request.config, request.node.name), bool(request.node.get_closest_marker("hidden")),
                 request.node.nodeid)


def _pending(item: pytest.Item) -> bool:
    """A hidden check with no reference to compare with: decided by the marker, never by text."""
    return bool(item.get_closest_marker("hidden")) and _reference_dir(item.config) is None


def _exercise_wide(excinfo: pytest.ExceptionInfo | None, module: object) -> bool:
    """Whether the check failed for what fails every check of the file (stored once, by parse)."""
    problem = module.problem if isinstance(module, StudentModule) else None
    exc = excinfo.value if excinfo is not None else None
    return (problem is not None and isinstance(exc, StudentProblem) and type(exc) is type(problem)
            and exc.message == problem.message)


@pytest.hookimpl(optionalhook=True)
def pytest_json_runtest_metadata(item: pytest.Item, call: pytest.CallInfo) -> dict:
    """Called by pytest-json-report for each phase; the first phase that fails decides."""
    extra = getattr(item, "_json_report_extra", {}).get("metadata", {})
    meta: dict = {}
    if call.when == "setup":
        points = item.get_closest_marker("points")
        function = getattr(item, "function", None)
        meta.update(
            exercise=exercise_of(item.module),
            check=item.originalname if hasattr(item, "originalname") else item.name,
            points=float(points.args[0]) if points else 1.0,
            visibility="hidden" if item.get_closest_marker("hidden") else "public",
            description=inspect.cleandoc(function.__doc__ or "") if function else "",
        )
    if call.when == "teardown":  # the module's student fixture has just drawn its plots, if any
        plots = item.config.stash.get(PLOTS, {}).pop(exercise_of(item.module), None)
        if plots:
            meta["plots"] = plots
        diagnosis = item.config.stash.get(DIAGNOSES, {}).pop(exercise_of(item.module), None)
        if diagnosis:
            meta["diagnosis"] = diagnosis
        spent = item.config.stash.get(SPENT, {}).pop(exercise_of(item.module), None)
        if spent is not None:  # the store's plan reads it (incremental.py); never shown
            meta[SPENT_FIELD] = spent
        entry = item.config.stash.get(ENTRY, {}).pop(exercise_of(item.module), None)
        if entry:  # the store keys the result by it (incremental.py); never shown
            meta[ENTRY_FIELD] = entry
    if "status" in extra and extra["status"] != "passed":
        return meta
    module = item.funcargs.get("student") if hasattr(item, "funcargs") else None
    hidden = item.get_closest_marker("hidden") is not None
    if call.excinfo is not None or call.when == "call":
        meta.update(_bounded(verdict(call.excinfo, hidden, _pending(item))))
        if _exercise_wide(call.excinfo, module):
            meta["exercise_wide"] = True
    if call.when == "call" or (call.excinfo is not None and call.when == "setup"):
        item._kit_unscripted = isinstance(module, StudentModule) and module.printed_unscripted
        output = module.drain_output() if isinstance(module, StudentModule) else None
        item._kit_output = output
        if output and not hidden:
            meta["output"] = output
    return meta
