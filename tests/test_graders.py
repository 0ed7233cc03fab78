"""Every grader is proven both ways, by `autograder.validate` itself: it passes what is right and
fails what is wrong. These tests only read its findings, one test per exercise and entry."""

from __future__ import annotations

import ast
import re

import pytest

from autograder.catalogue import unbound_names
from autograder.runner import grade_batch
from conftest import CATALOGUE, COURSE, GRADERS, MUTANTS, ROOT, SOLUTIONS, VARIANTS, settings

EXERCISES = [e.name for e in COURSE]


def findings(validation, kind: str, subject: str) -> list[str]:
    return [f"seed {f.seed}: {f.detail}" for f in validation.findings if f.kind == kind and f.subject == subject]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_reference_gets_full_marks(validation, exercise):
    assert validation.checks.get(exercise), f"no checks ran for {exercise}"
    assert findings(validation, "flake", f"reference {exercise}") == []


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.key for m in MUTANTS])
def test_mistake_loses_points_on_the_check_meant_for_it(validation, mutant):
    assert mutant.killed_by, f"{mutant.path} names no check in KILLED_BY"
    assert findings(validation, "hole", mutant.key) == []
    assert all(validation.kills[mutant.key].get(check) for check in mutant.killed_by)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.key for v in VARIANTS])
def test_correct_variant_gets_full_marks(validation, variant):
    assert findings(validation, "false-rejection", variant.key) == []


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_check_is_meant_to_catch_some_mistake(validation, exercise):
    checks = set(validation.checks[exercise])
    aimed = {name for m in MUTANTS if m.exercise == exercise for name in m.killed_by}
    assert checks - aimed == set(), f"checks no catalogued mistake is aimed at: {sorted(checks - aimed)}"


@pytest.fixture(scope="module")
def stubs():
    (graded,) = grade_batch([("stubs", ROOT / "exercises")], settings(only_submitted=True), jobs=1)
    return {e.name: e for e in graded.exercises}


@pytest.mark.parametrize("exercise", EXERCISES)
def test_stub_fails_every_check_without_errors(stubs, exercise):
    result = stubs[exercise]
    assert result.score == 0
    statuses = {t.name: t.status for t in result.tests}
    assert set(statuses.values()) == {"failed"}, statuses
    assert all("not implemented yet" in t.message for t in result.tests)


@pytest.mark.parametrize("entry", MUTANTS + VARIANTS, ids=[f"{e.kind.value}--{e.key}" for e in MUTANTS + VARIANTS])
def test_every_catalogue_entry_explains_itself_and_imports_what_it_uses(entry):
    assert entry.explanation.endswith("."), f"{entry.path}: the docstring must be one explaining sentence"
    assert unbound_names(entry.path.read_text()) == set(), f"{entry.path} uses names it does not import"


def test_every_place_lists_the_same_exercises():
    """Graders, course.toml, stubs, solutions, the catalogue and the README table name the same exercises."""
    graders = {p.stem.removeprefix("test_") for p in GRADERS.glob("test_*.py")}
    readme = set(re.findall(r"^\| `(\w+)\.py` \|", (ROOT / "README.md").read_text(), flags=re.M))
    places = {
        "graders/test_*.py": graders,
        "graders/course.toml": set(EXERCISES),
        "exercises/": {p.stem for p in (ROOT / "exercises").glob("*.py")},
        "solutions/": {p.stem for p in SOLUTIONS.glob("*.py")},
        "catalogue/": {p.name for p in CATALOGUE.iterdir() if p.is_dir()},
        "README table": readme,
    }
    assert len(set(EXERCISES)) == len(EXERCISES) == 6
    for place, names in places.items():
        assert names == set(EXERCISES), f"{place} lists {sorted(names)}; course.toml lists {sorted(EXERCISES)}"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_grader_names_its_exercise_only_by_its_file_name(exercise):
    tree = ast.parse((GRADERS / f"test_{exercise}.py").read_text())
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    assert "EXERCISE" not in assigned, "the exercise name comes from test_<name>.py; drop EXERCISE"
