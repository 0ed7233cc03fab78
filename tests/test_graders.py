"""Every grader is proven both ways: it passes what is right and fails what is wrong."""

from __future__ import annotations

import pytest

from conftest import COURSE, MUTANTS, VARIANTS

EXERCISES = [e.name for e in COURSE]


def describe(exercise_result) -> str:
    return "; ".join(f"{t.name}: {t.status} {t.message}" for t in exercise_result.tests if t.status != "passed")


@pytest.mark.parametrize("exercise", EXERCISES)
def test_reference_gets_full_marks(catalogue, exercise):
    result = catalogue.for_exercise(exercise)["reference"]
    assert result.status == "graded"
    assert result.tests, f"no checks ran for {exercise}"
    assert result.score == result.max_score, describe(result)
    assert result.pending_points == 0


@pytest.mark.parametrize("exercise", EXERCISES)
def test_stub_fails_every_check_without_errors(catalogue, exercise):
    result = catalogue.for_exercise(exercise)["stubs"]
    assert result.score == 0
    statuses = {t.name: t.status for t in result.tests}
    assert set(statuses.values()) == {"failed"}, statuses
    assert all("not implemented yet" in t.message for t in result.tests)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.key for m in MUTANTS])
def test_mutant_loses_points_on_the_check_meant_for_it(catalogue, mutant):
    result = catalogue.for_exercise(mutant.exercise)[f"mutant--{mutant.key}"]
    statuses = {t.name: t.status for t in result.tests}
    assert mutant.killed_by, f"{mutant.path} names no check in KILLED_BY"
    for check in mutant.killed_by:
        assert check in statuses, f"{mutant.path} names {check}, which {mutant.exercise}'s grader does not have"
        assert statuses[check] != "passed", f"{check} let the mutant through: {mutant.explanation}"
    assert result.score < result.max_score


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.key for v in VARIANTS])
def test_correct_variant_gets_full_marks(catalogue, variant):
    result = catalogue.for_exercise(variant.exercise)[f"variant--{variant.key}"]
    assert result.score == result.max_score, describe(result)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_check_is_meant_to_catch_some_mutant(catalogue, exercise):
    checks = {t.name for t in catalogue.for_exercise(exercise)["reference"].tests}
    aimed = {name for m in MUTANTS if m.exercise == exercise for name in m.killed_by}
    assert checks - aimed == set(), f"checks no catalogued mistake is aimed at: {sorted(checks - aimed)}"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_catalogue_entry_explains_itself(exercise):
    for entry in [e for e in MUTANTS + VARIANTS if e.exercise == exercise]:
        assert entry.explanation.endswith("."), f"{entry.path}: the docstring must be one explaining sentence"
