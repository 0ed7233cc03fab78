"""`validate` finds holes, flakes and false rejections, and prints a kill matrix with a verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograder.render.validation import render_validation
from autograder.validate import validate
from conftest import GRADERS, ROOT, SOLUTIONS, settings


def small_kit(root: Path, reference: str | None = None) -> Path:
    """A kit with only the scalar_chain exercise and a hand-picked catalogue."""
    (root / "graders").mkdir(parents=True)
    shutil.copy(GRADERS / "test_scalar_chain.py", root / "graders")
    shutil.copy(GRADERS / "pytest.ini", root / "graders")
    (root / "graders" / "course.toml").write_text('[[exercise]]\nname = "scalar_chain"\ntitle = "S"\n')
    (root / "solutions").mkdir()
    (root / "solutions" / "scalar_chain.py").write_text(reference or (SOLUTIONS / "scalar_chain.py").read_text())
    mistakes, variants = (root / "catalogue" / "scalar_chain" / kind for kind in ("mistakes", "variants"))
    for folder in (mistakes, variants):
        folder.mkdir(parents=True)
    shutil.copy(ROOT / "catalogue" / "scalar_chain" / "mistakes" / "drops_the_sign.py", mistakes)
    (mistakes / "not_a_mistake.py").write_text(
        '"""Claims to be wrong but is the exact power."""\nKILLED_BY = ("test_returns_a_float",)\n\n\n'
        "def scalar_gradient_chain(depth, layer_scale):\n    return layer_scale ** depth\n")
    (variants / "loop.py").write_text(
        '"""A loop, which the exact-power clause rules out, filed as a variant by mistake."""\n\n\n'
        "def scalar_gradient_chain(depth, layer_scale):\n    g = 1.0\n    for _ in range(depth):\n"
        "        g *= layer_scale\n    return g\n")
    return root


def run(root: Path, seeds=(1, 2), mutant_seeds=(1,)):
    return validate(root, seeds, mutant_seeds, settings(graders_dir=root / "graders", only_submitted=True), jobs=2)


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return run(small_kit(tmp_path_factory.mktemp("kit")))


def test_a_mutant_that_scores_full_marks_is_a_hole(result):
    holes = [f for f in result.findings if f.kind == "hole"]
    assert {f.subject for f in holes} == {"scalar_chain--not_a_mistake"}
    assert any("scored full marks" in f.detail for f in holes)
    assert any("test_returns_a_float let it through" in f.detail for f in holes)


def test_a_variant_that_loses_points_is_a_false_rejection(result):
    rejections = [f for f in result.findings if f.kind == "false-rejection"]
    assert {f.subject for f in rejections} == {"scalar_chain--loop"}
    assert {f.seed for f in rejections} == {1, 2}


def test_the_reference_passing_every_seed_is_no_flake(result):
    assert [f for f in result.findings if f.kind == "flake"] == []
    assert not result.sound


def test_the_matrix_marks_kills_and_discrimination(result):
    text = render_validation(result)
    checks = result.checks["scalar_chain"]
    sign = checks.index("test_negative_slope_flips_the_sign_each_layer") + 1
    assert result.kills["scalar_chain--drops_the_sign"]["test_negative_slope_flips_the_sign_each_layer"]
    assert f"{sign:>2} test_negative_slope_flips_the_sign_each_layer: kills 1, 0 alone" in text
    assert " drops_the_sign " in text and " X* " in text
    assert "test_zero_slope_kills_the_gradient: kills 0, 0 alone  <- kills no catalogued mistake" in text
    assert text.rstrip().endswith("1 hole, 0 flakes, 1 false rejection: NOT sound.")


def test_a_reference_that_fails_on_some_seed_is_a_flake(tmp_path):
    flaky = ("import math\n\ndef scalar_gradient_chain(depth, layer_scale):\n"
             "    return layer_scale ** depth if depth < 55 else 0.0\n")
    result = run(small_kit(tmp_path, reference=flaky), seeds=(1, 2, 3, 4), mutant_seeds=(1,))
    flakes = [f for f in result.findings if f.kind == "flake"]
    assert flakes and all(f.subject == "reference scalar_chain" for f in flakes)


def test_a_mutant_whose_checks_the_host_failed_is_a_flake_never_a_kill(tmp_path):
    # Withheld points are not lost points: counted as kills, they would hide a hole. In 60 MiB of
    # address space a fresh worker cannot map numpy, so it ends before it is ready: the host's failure.
    root = small_kit(tmp_path)
    result = validate(root, (1,), (1,), settings(graders_dir=root / "graders", only_submitted=True, isolation="process",
                                                 workers="fresh", memory_mb=60), jobs=1)
    mutant_flakes = {f.subject for f in result.findings if f.kind == "flake" and not f.subject.startswith("reference")}
    assert mutant_flakes == {m.key for m in result.mutants} and not result.sound
