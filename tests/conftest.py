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
from parallel import pytest_collection_modifyitems, pytest_runtest_protocol  # noqa: F401  (hooks)

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


def settings(**overrides) -> Settings:
    values = dict(graders_dir=GRADERS, reference_dir=SOLUTIONS, seed=TEST_SEED, isolation=sandbox.best_isolation(),
                  catalogue_dir=CATALOGUE)
    values.update(overrides)
    return Settings(**values)


@pytest.fixture(scope="session")
def validation() -> Validation:
    """The kit's one proof of its graders (`python grade.py validate`), at one seed, run once."""
    return validate(ROOT, (TEST_SEED,), (TEST_SEED,), settings(only_submitted=True), jobs=2)
