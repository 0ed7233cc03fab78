"""A normalization with another default eps than the stub's is told so, by every check it fails.

Such a function fails nearly every check that leaves eps out, and each check's own hint (about
variances, axes, gamma) would send the student the wrong way. Mistakes that get the default right
never see this hint, even where their output comes close to some eps's.
"""

from __future__ import annotations

import re

import pytest

from autograder.catalogue import compose
from autograder.runner import grade_batch
from conftest import MUTANTS, SOLUTIONS, settings

BY_KEY = {m.key: m for m in MUTANTS}
SOLUTION = (SOLUTIONS / "normalization.py").read_text()
SWAPPED = (SOLUTION.replace("eps=1e-5", "eps=EPS").replace("eps=1e-6", "eps=1e-5").replace("eps=EPS", "eps=1e-6"))
# Mistakes whose output is close to what some eps gives, on some check: none of them is about the default.
CONTROLS = ("ln_eps_outside_root", "ln_batch_axis", "ln_all_entries", "ln_only_2d", "ln_sample_variance",
            "rms_subtracts_the_mean", "rms_eps_outside_root", "one_pass_variance", "zeroes_rows_of_tiny_variance")
HINT = re.compile(r"Called without eps, your (layer_norm|rms_norm) gives what eps = (\S+) would: it must then use "
                  r"the default of its signature in the stub, eps = (\S+), under the square root\.")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("eps")
    sources = {"swapped": SWAPPED}
    for name in ("ln_default_eps_1e_6", "rms_default_eps_1e_5", *CONTROLS):
        sources[name] = compose(SOLUTION, BY_KEY[f"normalization--{name}"].path.read_text())
    assert "def layer_norm(x, eps=1e-6," in SWAPPED and "def rms_norm(x, eps=1e-5," in SWAPPED
    submissions = []
    for name, source in sources.items():
        (root / name).mkdir()
        (root / name / "normalization.py").write_text(source)
        submissions.append((name, root / name))
    results = grade_batch(submissions, settings(only_submitted=True), jobs=2)
    return {r.id: next(e for e in r.exercises if e.name == "normalization") for r in results}


def _failed(exercise):
    return [t for t in exercise.tests if t.score < t.max_score]


@pytest.mark.parametrize("name, said", [
    ("ln_default_eps_1e_6", {("layer_norm", "1e-06", "1e-05")}),
    ("rms_default_eps_1e_5", {("rms_norm", "1e-05", "1e-06")}),
    ("swapped", {("layer_norm", "1e-06", "1e-05"), ("rms_norm", "1e-05", "1e-06")}),
])
def test_every_check_a_wrong_default_eps_fails_says_so(graded, name, said):
    failed = _failed(graded[name])
    assert len(failed) >= 8, [t.name for t in failed]
    hints = {t.name: HINT.fullmatch(t.hint) for t in failed}
    assert [n for n, m in hints.items() if m is None] == []
    assert {m.groups() for m in hints.values()} == said


@pytest.mark.parametrize("name", CONTROLS)
def test_a_mistake_with_the_right_default_is_not_told_about_the_default(graded, name):
    failed = _failed(graded[name])
    assert failed, "the mistake is caught"
    assert [t.name for t in failed if "Called without eps" in t.hint] == []
