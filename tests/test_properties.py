"""The `cases` runner: reproducible from the seed, shrinks public failures, hides hidden cases."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from autograder.problems import CheckFailed, StudentRaised
from autograder.properties import Cases


def fails_above(limit):
    def prop(case):
        if case > limit:
            raise CheckFailed(f"f({case}) returned the wrong value.", "a hint")
    return prop


def test_a_public_failure_shows_the_smallest_failing_case():
    with pytest.raises(CheckFailed) as caught:
        Cases(seed=1, hidden=False).check(st.integers(0, 10 ** 6), fails_above(1000))
    assert caught.value.message == "Fails for this case (the smallest the grader found): f(1001) returned the wrong value."
    assert caught.value.hint == "a hint"


def test_a_hidden_failure_shows_no_case_but_keeps_the_hint():
    with pytest.raises(CheckFailed) as caught:
        Cases(seed=1, hidden=True).check(st.integers(0, 10 ** 6), fails_above(1000))
    assert caught.value.message == "Fails on one of the hidden cases (the case stays hidden)."
    assert caught.value.hint == "a hint"


def test_a_hidden_exception_keeps_its_type_but_not_the_students_text():
    def prop(case):
        raise StudentRaised(f"f() raised ValueError: bad input {case}", "", "traceback", "ValueError",
                            ("builtins.ValueError",))
    with pytest.raises(StudentRaised) as caught:
        Cases(seed=1, hidden=True).check(st.integers(5, 9), prop)
    assert caught.value.message == "f() raised ValueError on one of the hidden cases (the case stays hidden)."
    assert caught.value.detail == "" and caught.value.raised("ValueError")


def test_the_same_seed_draws_the_same_cases_and_another_seed_others():
    def drawn(seed):
        seen = []
        Cases(seed=seed, hidden=True).check(st.floats(-1e6, 1e6), seen.append, examples=30)
        return seen
    assert drawn(7) == drawn(7)
    assert drawn(7) != drawn(8)


def test_explicit_cases_run_on_every_seed():
    seen = []
    Cases(seed=3, hidden=False).check(st.integers(0, 5), seen.append, examples=5, explicit=[123456])
    assert 123456 in seen
