"""`validate --mutate`: mutmut's operators make one-change mutants; survivors must be accounted for."""

from __future__ import annotations

import pytest

from autograder.mutation import Mutant, MutationResult, generate, load_equivalent
from conftest import COURSE, ROOT

pytest.importorskip("mutmut")

SOURCE = "def f(x, limit):\n    if x > limit:\n        return x * 2\n    return x\n"


def test_every_mutant_changes_the_source_once_and_is_named_by_its_line():
    mutants = generate("f", SOURCE)
    names = [m.name for m in mutants]
    assert "f: 2: > limit -> >= limit" in names
    assert "f: 3: x * 2 -> x / 2" in names
    assert len(set(m.source for m in mutants)) == len(mutants)
    assert all(m.source != SOURCE for m in mutants)


def _result(killed, equivalent):
    mutants = tuple(Mutant("f", name, "") for name in ("a", "b", "c"))
    return MutationResult(mutants, frozenset(killed), equivalent, ("f",))


def test_an_unlisted_survivor_is_a_hole():
    result = _result({"a", "b"}, {})
    assert [m.name for m in result.holes] == ["c"] and not result.sound
    assert result.score("f") == (2, 3)


def test_a_listed_survivor_is_accounted_for_and_leaves_the_score():
    result = _result({"a", "b"}, {"c": "same values"})
    assert result.holes == [] and result.sound
    assert result.score("f") == (2, 2)


def test_a_listed_mutant_that_is_killed_is_stale():
    result = _result({"a", "b", "c"}, {"c": "same values"})
    assert result.stale == ["c"] and not result.sound


def test_every_listed_equivalent_names_a_mutant_of_the_solutions():
    generated = {m.name for e in COURSE for m in generate(e.name, (ROOT / "solutions" / f"{e.name}.py").read_text())}
    equivalent = load_equivalent(ROOT)
    assert equivalent and set(equivalent) <= generated
    assert all(reason.endswith(".") for reason in equivalent.values())
