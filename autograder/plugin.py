"""The pytest plugin every grader runs under: options, markers, fixtures, and per-check verdicts.

A grader module sets ``EXERCISE = "<stem>"`` and writes plain tests that take the ``student``
fixture. This plugin hands each test a :class:`~autograder.client.StudentModule`, seeds its
random inputs, skips hidden checks when the reference is absent, and writes each check's verdict
(status, message, hint, points, visibility, what the student printed) into the test's metadata,
which pytest-json-report carries to :mod:`autograder.parse`.
"""

from __future__ import annotations

import importlib.util
import inspect
import zlib
from pathlib import Path

import numpy as np
import pytest

from . import sandbox
from .budget import Budget
from .client import StudentModule
from .quiet import QuietLock
from .problems import CheckFailed, StudentProblem

PENDING_REASON = "hidden: graded after submission"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder")
    group.addoption("--submission", default="exercises", help="folder holding the student's exercise files")
    group.addoption("--reference", default="", help="folder of reference solutions; hidden checks are pending without it")
    group.addoption("--grade-seed", type=int, default=0, help="seed every random input derives from")
    group.addoption("--isolation", default="process", choices=sandbox.ISOLATIONS)
    group.addoption("--call-timeout", type=float, default=sandbox.Limits.call_timeout)
    group.addoption("--memory-mb", type=int, default=sandbox.Limits.memory_bytes >> 20)
    group.addoption("--quiet-lock", default="", help="lock file the pool processes of one run share (runner.py)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "points(n): how many points the check is worth")
    config.addinivalue_line("markers", "hidden: compares with the reference solution; not shipped to students")


def _reference_dir(config: pytest.Config) -> Path | None:
    value = config.getoption("--reference")
    return Path(value) if value and Path(value).is_dir() else None


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("hidden") and _reference_dir(item.config) is None:
        pytest.skip(PENDING_REASON)


def _limits(config: pytest.Config) -> sandbox.Limits:
    return sandbox.Limits.for_call_timeout(config.getoption("--call-timeout"), config.getoption("--memory-mb") << 20)


@pytest.fixture(scope="session")
def submission_budget(request: pytest.FixtureRequest) -> Budget:
    """The running time all of one submission's exercises share (one pytest run grades one submission)."""
    return Budget(_limits(request.config).submission_seconds, "your whole submission")


@pytest.fixture(scope="session")
def quiet_lock(request: pytest.FixtureRequest):
    """Held shared by every call and exclusively by a retry, across the run's pool processes."""
    lock = QuietLock(request.config.getoption("--quiet-lock"))
    yield lock
    lock.close()


@pytest.fixture(scope="module")
def student(request: pytest.FixtureRequest, submission_budget: Budget, quiet_lock: QuietLock):
    """The student's file for this grader's exercise, running in a worker process."""
    exercise = request.module.EXERCISE
    config = request.config
    module = StudentModule(Path(config.getoption("--submission")) / f"{exercise}.py", exercise,
                           config.getoption("--isolation"), _limits(config), submission_budget, quiet_lock)
    yield module
    module.close()


@pytest.fixture(scope="module")
def reference(request: pytest.FixtureRequest):
    """The reference solution, imported in the trusted process (hidden checks only)."""
    folder = _reference_dir(request.config)
    if folder is None:
        pytest.skip(PENDING_REASON)
    exercise = request.module.EXERCISE
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


def _verdict(excinfo: pytest.ExceptionInfo | None) -> dict:
    if excinfo is None:
        return {"status": "passed", "message": "", "hint": "", "detail": ""}
    exc = excinfo.value
    if isinstance(exc, StudentProblem):
        return {"status": exc.status, "message": exc.message, "hint": exc.hint, "detail": exc.detail}
    if isinstance(exc, CheckFailed):
        return {"status": "failed", "message": exc.message, "hint": exc.hint, "detail": ""}
    if excinfo.errisinstance(pytest.skip.Exception):
        reason = str(getattr(exc, "msg", "")) or PENDING_REASON
        return {"status": "pending" if reason == PENDING_REASON else "skipped", "message": reason, "hint": "", "detail": ""}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        message = str(getattr(exc, "msg", "") or exc).strip().splitlines()
        return {"status": "failed", "message": message[0] if message else "Check failed.", "hint": "", "detail": ""}
    return {"status": "error", "internal": True,
            "message": f"The grader itself failed ({type(exc).__name__}: {str(exc)[:200]}); this is not your fault.",
            "hint": "Tell your instructor; the check's score is withheld.", "detail": ""}


@pytest.hookimpl(optionalhook=True)
def pytest_json_runtest_metadata(item: pytest.Item, call: pytest.CallInfo) -> dict:
    """Called by pytest-json-report for each phase; the first phase that fails decides."""
    extra = getattr(item, "_json_report_extra", {}).get("metadata", {})
    meta: dict = {}
    if call.when == "setup":
        points = item.get_closest_marker("points")
        function = getattr(item, "function", None)
        meta.update(
            exercise=getattr(item.module, "EXERCISE", item.module.__name__),
            check=item.originalname if hasattr(item, "originalname") else item.name,
            points=float(points.args[0]) if points else 1.0,
            visibility="hidden" if item.get_closest_marker("hidden") else "public",
            description=inspect.cleandoc(function.__doc__ or "") if function else "",
        )
    if "status" in extra and extra["status"] != "passed":
        return meta
    if call.excinfo is not None or call.when == "call":
        meta.update(_verdict(call.excinfo))
    if call.when == "call" or (call.excinfo is not None and call.when == "setup"):
        module = item.funcargs.get("student") if hasattr(item, "funcargs") else None
        output = module.drain_output() if isinstance(module, StudentModule) else None
        if output:
            meta["output"] = output
    return meta
