"""Shared fixtures for the kit's own tests."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from autograder import sandbox
from autograder.catalogue import Kind, load_entries
from autograder.model import load_course
from autograder.properties import use_cache_home
from autograder.runner import Settings
from autograder.validate import Validation, validate

# The suite's own user cache (scripts, drawn cases, Hypothesis's files), for it and every process
# it starts: a test that fakes a broken sandbox must not leave the machine's cache a recording of
# it, and whether `check` takes its quick way must not depend on what earlier runs left there.
CACHE_HOME = tempfile.mkdtemp(prefix="gradient-kit-tests-cache-")
os.environ["XDG_CACHE_HOME"] = CACHE_HOME
atexit.register(shutil.rmtree, CACHE_HOME, ignore_errors=True)

# The attack suite proves that grading changes no file of the kit; Hypothesis's own files
# (written by the tests that use it directly) must not land in the checkout either.
use_cache_home()

ROOT = Path(__file__).resolve().parents[1]
GRADERS = ROOT / "graders"
SOLUTIONS = ROOT / "solutions"
CATALOGUE = ROOT / "catalogue"
COURSE = load_course(GRADERS)
MUTANTS = load_entries(CATALOGUE, Kind.MISTAKE)
VARIANTS = load_entries(CATALOGUE, Kind.VARIANT)
TEST_SEED = 20261129


# The suite runs on every core through pytest-xdist (`-n 2` in pyproject.toml). A test that shares
# a costly fixture of its module (a class graded once for many checks) stays with that module's
# others on one worker, so the grading runs once; the tests that read the validation (minutes of
# grading, session-wide) share one worker for the same reason; every other test goes wherever a
# worker is free. The slowest groups are handed out first: one of them started last would leave a
# worker idle while the other finishes it.
SLOWEST_FIRST = ("test_shard", "test_attacks", "validation", "test_zygote", "test_incremental", "test_cli",
                 "test_scripts", "test_distributed", "test_output_stream", "test_golden")


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


def settings(**overrides) -> Settings:
    values = dict(graders_dir=GRADERS, reference_dir=SOLUTIONS, seed=TEST_SEED, isolation=sandbox.best_isolation(),
                  catalogue_dir=CATALOGUE)
    values.update(overrides)
    return Settings(**values)


@pytest.fixture(scope="session")
def validation() -> Validation:
    """The kit's one proof of its graders (`python grade.py validate`), at one seed, run once."""
    return validate(ROOT, (TEST_SEED,), (TEST_SEED,), settings(only_submitted=True), jobs=2)
