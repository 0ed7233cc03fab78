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


DRAW = """
import sys
sys.path[:0] = sys.argv[2:]
if sys.argv[1] == "with":
    import planted_constants  # a "local" module: outside site-packages and any folder named test(s)
from hypothesis import strategies as st
from autograder.properties import _generate
cases = _generate(st.tuples(st.floats(-1e6, 1e6), st.integers(-10**6, 10**6)), 7, 300)
print(repr(cases))
"""


def test_the_cases_of_a_seed_do_not_depend_on_which_modules_are_loaded(tmp_path):
    """Hypothesis mixes literals from "local" modules into its draws; the kit's draws must not
    change with the modules a process happens to have loaded (its path, its user, its Python)."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "planted_constants.py").write_text(
        "".join(f"C{i} = {value!r}\n" for i, value in enumerate([123456.75, -98765.25, 424242, -31337, 0.5e-3])))
    drawn = [subprocess.run([sys.executable, "-c", DRAW, which, str(ROOT), str(folder)], capture_output=True, text=True,
                            timeout=300, cwd=folder, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
             for which in ("without", "with")]
    assert all(run.returncode == 0 for run in drawn), drawn[0].stderr[-1000:] + drawn[1].stderr[-1000:]
    assert drawn[0].stdout == drawn[1].stdout
