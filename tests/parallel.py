"""The suite on two cores (pytest-xdist, `-n 2` in pyproject.toml): which tests share a worker, and
which run alone.

A test that shares a costly fixture of its module (a class graded once for many checks) stays with
that module's others on one worker, so the grading runs once; the tests that read the validation
(minutes of grading, session-wide) share one worker for the same reason; every other test goes
wherever a worker is free. The slowest groups are handed out first: one of them started last would
leave a worker idle while the other finishes it.

While a test marked ``alone`` runs, no test runs on the other worker. Two kinds need it:
- a test that counts what every process of the user holds (RLIMIT_NPROC counts them all);
- a test that grades code which runs until a limit stops it, and compares the outcome exactly with
  another grading: the CPU limit should stop such a call, but with the other worker's grading
  beside it the call may get so little of a core that the wall-clock backstop or the exercise's
  budget stops it first, in one of the two gradings only.
Each test takes a shared lock, an ``alone`` test an exclusive one, both through a turnstile, so
that a test waiting to run alone is not kept waiting for ever by the other worker's stream of
short tests.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

SLOWEST_FIRST = ("test_shard", "test_attacks", "validation", "test_zygote", "test_incremental", "test_cli",
                 "test_scripts", "test_distributed", "test_output_stream", "test_golden")
LOCKS = "GRADIENT_KIT_TEST_LOCKS"

if "PYTEST_XDIST_WORKER" not in os.environ and LOCKS not in os.environ:
    # The controller (or a run on one process) makes the folder its workers will share.
    os.environ[LOCKS] = tempfile.mkdtemp(prefix="gradient-kit-test-locks-")
    atexit.register(shutil.rmtree, os.environ[LOCKS], ignore_errors=True)


def _shared_group(item: pytest.Item) -> str | None:
    """The group of tests this one must run beside, or None if it shares nothing costly."""
    ours = [definition for definitions in item._fixtureinfo.name2fixturedefs.values() for definition in definitions
            if definition.baseid.startswith("tests")]  # pytest's own (tmp_path_factory, ...) cost nothing
    if any(definition.scope == "session" for definition in ours):
        return "validation"
    if any(definition.scope != "function" for definition in ours):
        return item.module.__name__
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    groups = {item: _shared_group(item) for item in items}
    modules_with_validation = {item.module.__name__ for item, group in groups.items() if group == "validation"}
    for item, group in groups.items():
        if group is not None and item.module.__name__ in modules_with_validation:
            group = groups[item] = "validation"  # one worker has the validation and the module's fixtures
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    rank = {group: place for place, group in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(groups[item], len(rank)))  # stable: each group keeps its order


@contextlib.contextmanager
def _turn(folder: str, alone: bool) -> Iterator[None]:
    with open(os.path.join(folder, "turnstile"), "a") as turnstile, open(os.path.join(folder, "running"), "a") as running:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(running, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(running, fcntl.LOCK_UN)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    folder = os.environ.get(LOCKS)
    if "PYTEST_XDIST_WORKER" not in os.environ or not folder or not os.path.isdir(folder):
        return (yield)
    with _turn(folder, alone=item.get_closest_marker("alone") is not None):
        return (yield)
