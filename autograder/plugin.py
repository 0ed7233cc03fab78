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

from . import interrupts, sandbox, sanitize
from .budget import Budget
from .client import StudentModule
from .diagnose import diagnose
from .figures import record_all
from .model import GRADER_FAILED, PENDING_LABEL, Status
from .probes import RecordingModule
from .properties import Cases, use_cache_home
from .problems import CheckFailed, StudentProblem, StudentRaised
from .quiet import QuietLock
from .zygote import WORKERS, Zygote

PLOTS = pytest.StashKey[dict]()  # exercise -> plots recorded at the end of its module, until reported
DIAGNOSES = pytest.StashKey[dict]()  # exercise -> its diagnosis, made at the end of its module, until reported
FAILED = pytest.StashKey[dict]()  # exercise -> names of the checks it failed so far
SUBMISSION = pytest.StashKey[Path]()  # the folder graded now, when one session grades several (shard.py)
FOLLOWING = pytest.StashKey[bool]()  # whether another submission follows it in this session
# A warm sandbox started ahead of the submission that will take it: the first at the session's
# start, while pytest collects; each next one while the submission before it is graded. It has
# run no student code, so whichever submission takes it gets a sandbox as fresh as a new one.
SPARE = pytest.StashKey[Zygote | None]()
# A hidden check says that it failed and how, never on what: a comparison's values and the
# student's own exception message (which may echo its arguments) stay on the trusted side.
HIDDEN_FAILED = "Your function did not match on the hidden random inputs (they are not shown, so the check stays a test)."
HIDDEN_RAISED = "Your code raised {type} on one of the hidden random inputs (they are not shown)."


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder")
    group.addoption("--submission", default="exercises", help="folder holding the student's exercise files")
    group.addoption("--reference", default="", help="folder of reference solutions; hidden checks are pending without it")
    group.addoption("--catalogue", default="", help="the catalogue of known mistakes; no diagnosis without it")
    group.addoption("--grade-seed", type=int, default=0, help="seed every random input derives from")
    group.addoption("--isolation", default="process", choices=sandbox.ISOLATIONS)
    group.addoption("--bwrap", default="", help="the bwrap binary the command line proved (bubblewrap isolation)")
    group.addoption("--call-timeout", type=float, default=sandbox.Limits.call_timeout)
    group.addoption("--memory-mb", type=int, default=sandbox.Limits.memory_bytes >> 20)
    group.addoption("--workers", default=WORKERS[0], choices=WORKERS,
                    help="fork each exercise's worker from a warm sandbox per submission, or start each afresh")
    group.addoption("--quiet-lock", default="", help="lock file the pool processes of one run share (runner.py)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "points(n): how many points the check is worth")
    config.addinivalue_line("markers", "hidden: compares with the reference solution; not shipped to students")
    use_cache_home()


def _reference_dir(config: pytest.Config) -> Path | None:
    value = config.getoption("--reference")
    return Path(value) if value and Path(value).is_dir() else None


def begin_submission(config: pytest.Config, folder: Path, following: bool = False) -> None:
    """Start grading ``folder`` in this session: nothing recorded for the previous submission remains.
    ``following`` says whether another submission comes after it."""
    for key in (PLOTS, DIAGNOSES, FAILED):
        if key in config.stash:
            del config.stash[key]
    config.stash[SUBMISSION] = folder
    config.stash[FOLLOWING] = following


def pytest_sessionstart(session: pytest.Session) -> None:
    if not session.config.option.collectonly:
        session.config.stash[SPARE] = _started_zygote(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    spare = config.stash.get(SPARE, None)
    if spare is not None:  # no submission came to take it (a session that stopped early)
        spare.close()
        config.stash[SPARE] = None


def submission_folder(config: pytest.Config) -> Path:
    return config.stash.get(SUBMISSION, None) or Path(config.getoption("--submission"))


def exercise_of(module) -> str:
    """The exercise a grader module checks: ``test_<exercise>.py`` names it."""
    return Path(module.__file__).stem.removeprefix("test_")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("hidden") and _reference_dir(item.config) is None:
        pytest.skip(PENDING_LABEL)


def _limits(config: pytest.Config) -> sandbox.Limits:
    return sandbox.Limits.for_call_timeout(config.getoption("--call-timeout"), config.getoption("--memory-mb") << 20)


@pytest.fixture(scope="session")
def submission_budget(request: pytest.FixtureRequest) -> Budget:
    """The running time all of one submission's exercises share (torn down after each submission's last check)."""
    return Budget(_limits(request.config).submission_seconds, "your whole submission")


@pytest.fixture(scope="session")
def quiet_lock(request: pytest.FixtureRequest):
    """Held shared by every call and exclusively by a retry, across the run's pool processes."""
    lock = QuietLock(request.config.getoption("--quiet-lock"))
    yield lock
    lock.close()


@pytest.fixture(scope="session")
def zygote(request: pytest.FixtureRequest):
    """The submission's warm sandbox, where that is safe; torn down after the submission's last check,
    so no two submissions ever share one (shard.py)."""
    config = request.config
    warm = config.stash.get(SPARE, None) or _started_zygote(config)
    config.stash[SPARE] = _started_zygote(config) if warm is not None and config.stash.get(FOLLOWING, False) else None
    yield warm
    if warm is not None:
        warm.close()


def _started_zygote(config: pytest.Config) -> Zygote | None:
    """A new warm sandbox, already starting; None where workers start afresh (sandbox.zygote_possible)."""
    isolation, bwrap_path = config.getoption("--isolation"), config.getoption("--bwrap")
    if config.getoption("--workers") != "zygote" or not sandbox.zygote_possible(isolation, bwrap_path):
        return None
    warm = Zygote(isolation, _limits(config), bwrap_path)
    warm.start()
    return warm


@pytest.fixture(scope="module")
def student(request: pytest.FixtureRequest, submission_budget: Budget, quiet_lock: QuietLock, zygote):
    """The student's file for this grader's exercise, running in a worker process."""
    exercise = exercise_of(request.module)
    config = request.config
    module = RecordingModule(submission_folder(config) / f"{exercise}.py", exercise,
                             config.getoption("--isolation"), _limits(config), config.getoption("--bwrap"),
                             submission_budget=submission_budget, quiet=quiet_lock, zygote=zygote)
    yield module
    module.check = ""  # the plots' calls below belong to no check
    try:
        if interrupts.pressed():  # stopping: the student's code is not called again (it may hang)
            return
        _diagnose(request.config, exercise, module)
        plots = getattr(request.module, "PLOTS", ())
        if plots and module._problem is None and not module._timeouts:  # broken or hanging: nothing to draw
            # In a fresh worker and sandbox: one that has seen the hidden checks' inputs could
            # answer the public plot calls with them, and the report would show them.
            module.fresh_worker()
            request.config.stash.setdefault(PLOTS, {})[exercise] = [asdict(p) for p in record_all(plots, module)]
            module.drain_output()  # printed while drawing: belongs to no check
    finally:
        module.close()


@pytest.fixture(autouse=True)
def _current_check(request: pytest.FixtureRequest):
    """Tells the recording module which check its calls belong to (hidden ones are never shown)."""
    if "student" not in request.fixturenames:
        yield
        return
    module = request.getfixturevalue("student")
    module.check = getattr(request.node, "originalname", request.node.name)
    module.hidden = request.node.get_closest_marker("hidden") is not None
    yield
    module.check = ""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
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


def _verdict(excinfo: pytest.ExceptionInfo | None, hidden: bool = False, pending: bool = False) -> dict:
    if excinfo is None:
        return {"status": "passed", "message": "", "hint": "", "detail": ""}
    exc = excinfo.value
    if isinstance(exc, StudentRaised) and hidden:
        return {"status": exc.status, "message": HIDDEN_RAISED.format(type=exc.exc_type or "an exception"),
                "hint": exc.hint, "detail": ""}
    if isinstance(exc, StudentProblem):
        # A public call may be named with its arguments (a timeout says which call hung).
        message = exc.message if hidden else (getattr(exc, "public_message", "") or exc.message)
        return {"status": exc.status, "message": message, "hint": exc.hint, "detail": exc.detail}
    if isinstance(exc, CheckFailed):
        return {"status": "failed", "message": HIDDEN_FAILED if hidden else exc.message, "hint": exc.hint, "detail": ""}
    if excinfo.errisinstance(pytest.skip.Exception):
        if pending:
            return {"status": Status.PENDING.value, "message": PENDING_LABEL, "hint": "", "detail": ""}
        return {"status": "skipped", "message": str(getattr(exc, "msg", "")), "hint": "", "detail": ""}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        message = [HIDDEN_FAILED] if hidden else str(getattr(exc, "msg", "") or exc).strip().splitlines()
        return {"status": "failed", "message": message[0] if message else "Check failed.", "hint": "", "detail": ""}
    return {"status": "error", "internal": True,
            "message": f"{GRADER_FAILED} ({type(exc).__name__}: {str(exc)[:200]}); this is not your fault.",
            "hint": "Tell your instructor; the check's score is withheld.", "detail": ""}


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
    if "status" in extra and extra["status"] != "passed":
        return meta
    module = item.funcargs.get("student") if hasattr(item, "funcargs") else None
    hidden = item.get_closest_marker("hidden") is not None
    if call.excinfo is not None or call.when == "call":
        meta.update(_bounded(_verdict(call.excinfo, hidden, _pending(item))))
        if _exercise_wide(call.excinfo, module):
            meta["exercise_wide"] = True
    if call.when == "call" or (call.excinfo is not None and call.when == "setup"):
        output = module.drain_output() if isinstance(module, StudentModule) else None
        if output and not hidden:
            meta["output"] = output
    return meta
