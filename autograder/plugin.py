"""The pytest plugin every grader runs under: options, markers, fixtures, and per-check verdicts.

A grader module ``graders/test_<exercise>.py`` (the exercise's name comes from the file name)
writes plain tests that take the ``student`` fixture. This plugin hands each test a :class:`~autograder.client.StudentModule`, seeds its
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
from .client import StudentModule
from .model import PENDING_LABEL, Status
from .properties import Cases
from .problems import CheckFailed, StudentProblem



def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograder")
    group.addoption("--submission", default="exercises", help="folder holding the student's exercise files")
    group.addoption("--reference", default="", help="folder of reference solutions; hidden checks are pending without it")
    group.addoption("--grade-seed", type=int, default=0, help="seed every random input derives from")
    group.addoption("--isolation", default="process", choices=sandbox.ISOLATIONS)
    group.addoption("--call-timeout", type=float, default=sandbox.Limits.call_timeout)
    group.addoption("--memory-mb", type=int, default=sandbox.Limits.memory_bytes >> 20)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "points(n): how many points the check is worth")
    config.addinivalue_line("markers", "hidden: compares with the reference solution; not shipped to students")


def _reference_dir(config: pytest.Config) -> Path | None:
    value = config.getoption("--reference")
    return Path(value) if value and Path(value).is_dir() else None


def exercise_of(module) -> str:
    """The exercise a grader module checks: ``test_<exercise>.py`` names it."""
    return Path(module.__file__).stem.removeprefix("test_")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("hidden") and _reference_dir(item.config) is None:
        pytest.skip(PENDING_LABEL)


@pytest.fixture(scope="module")
def student(request: pytest.FixtureRequest):
    """The student's file for this grader's exercise, running in a worker process."""
    exercise = exercise_of(request.module)
    config = request.config
    limits = sandbox.Limits(call_timeout=config.getoption("--call-timeout"),
                            memory_bytes=config.getoption("--memory-mb") << 20)
    module = StudentModule(Path(config.getoption("--submission")) / f"{exercise}.py", exercise,
                           config.getoption("--isolation"), limits)
    yield module
    module.close()


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


@pytest.fixture
def cases(request: pytest.FixtureRequest) -> Cases:
    """Runs a check's properties over Hypothesis strategies, seeded from the run's recorded seed;
    a hidden check's failing case stays hidden."""
    return Cases(seed_for(request.config, request.node.name), bool(request.node.get_closest_marker("hidden")))


def _pending(item: pytest.Item) -> bool:
    """A hidden check with no reference to compare with: decided by the marker, never by text."""
    return bool(item.get_closest_marker("hidden")) and _reference_dir(item.config) is None


def _verdict(excinfo: pytest.ExceptionInfo | None, pending: bool) -> dict:
    if excinfo is None:
        return {"status": Status.PASSED.value, "message": "", "hint": "", "detail": ""}
    exc = excinfo.value
    if isinstance(exc, StudentProblem):
        return {"status": exc.status, "message": exc.message, "hint": exc.hint, "detail": exc.detail}
    if isinstance(exc, CheckFailed):
        return {"status": Status.FAILED.value, "message": exc.message, "hint": exc.hint, "detail": ""}
    if excinfo.errisinstance(pytest.skip.Exception):
        if pending:
            return {"status": Status.PENDING.value, "message": PENDING_LABEL, "hint": "", "detail": ""}
        return {"status": "skipped", "message": str(getattr(exc, "msg", "")), "hint": "", "detail": ""}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        message = str(getattr(exc, "msg", "") or exc).strip().splitlines()
        return {"status": Status.FAILED.value, "message": message[0] if message else "Check failed.", "hint": "",
                "detail": ""}
    return {"status": Status.ERROR.value, "internal": True,
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
            exercise=exercise_of(item.module),
            check=item.originalname if hasattr(item, "originalname") else item.name,
            points=float(points.args[0]) if points else 1.0,
            visibility="hidden" if item.get_closest_marker("hidden") else "public",
            description=inspect.cleandoc(function.__doc__ or "") if function else "",
        )
    if "status" in extra and extra["status"] != Status.PASSED:
        return meta
    if call.excinfo is not None or call.when == "call":
        meta.update(_verdict(call.excinfo, _pending(item)))
    if call.when == "call" or (call.excinfo is not None and call.when == "setup"):
        module = item.funcargs.get("student") if hasattr(item, "funcargs") else None
        output = module.drain_output() if isinstance(module, StudentModule) else None
        # What the student printed during a hidden check could spell out its hidden cases.
        if output and not item.get_closest_marker("hidden"):
            meta["output"] = output
    return meta
