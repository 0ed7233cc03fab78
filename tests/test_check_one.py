"""`check --exercise NAME` and `check FILE` grade one exercise only."""

from __future__ import annotations

import json
import shutil

import pytest

from autograder import cli
from conftest import ROOT

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path):
    for name in ("scalar_chain.py", "residual.py"):
        shutil.copy(ROOT / "solutions" / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("how", [("--exercise", "residual"), ("--exercise", "residual.py"), ("FILE",)])
def test_one_exercise_is_graded_and_reported(capsys, folder, tmp_path, how):
    argv = ["check", str(folder / "residual.py")] if how == ("FILE",) else ["check", str(folder), *how]
    results = tmp_path / "results.json"
    code, out, _ = run(capsys, *argv, "--isolation", "process", "--seed", "5", "--json", str(results))
    assert code == 0, out
    student = json.loads(results.read_text())["students"][0]
    assert [e["name"] for e in student["exercises"]] == ["residual"]
    assert "residual" in out and "scalar_chain" not in out


def test_an_unknown_exercise_is_one_sentence_with_a_suggestion(capsys, folder):
    code, out, err = run(capsys, "check", str(folder), "--exercise", "residul")
    assert code == 2 and out == ""
    assert err == "error: there is no exercise called 'residul'; did you mean 'residual'?\n"


def checked_as_a_student(capsys, folder, exercise: str) -> list[dict]:
    """The checks of one exercise in ``folder`` as ``check --student-view`` writes them (seed 5)."""
    results = folder / "results.json"
    run(capsys, "check", str(folder), "--exercise", exercise, "--isolation", "process", "--seed", "5",
        "--json", str(results), "--student-view")
    return json.loads(results.read_text())["students"][0]["exercises"][0]["tests"]


def test_a_public_check_names_the_call_that_raised_and_a_hidden_one_never_does(capsys, tmp_path):
    """A flag renamed from the stub's: the student must see the call that raised, keyword and all,
    to see why; a hidden check's inputs stay hidden."""
    (tmp_path / "residual.py").write_text(
        "def residual_chain_gradient(depth, block_slope, skip=True):\n"
        "    return (1.0 + block_slope if skip else float(block_slope)) ** depth\n", encoding="utf-8")
    tests = checked_as_a_student(capsys, tmp_path, "residual")
    public = next(t for t in tests if t["name"] == "test_ten_residual_blocks_keep_1_28")
    assert public["message"].startswith("residual_chain_gradient(10, 0.025, residual=True) raised TypeError: "), public
    assert all("0.025" not in t["message"] and "residual=" not in t["message"] for t in tests if t["visibility"] == "hidden")


def test_a_named_kind_refused_by_an_identity_comparison_is_told_to_compare_with_equals(capsys, tmp_path):
    """`kind is "he"` holds in the student's REPL and fails for the grader's equal string: the
    refusal must say why, or it looks impossible to reproduce. The refusal checks, which also want
    the two named kinds accepted, say the same."""
    (tmp_path / "init_std.py").write_text(
        "import math\n\n\ndef init_std(kind, fan_in, fan_out):\n"
        "    if kind is 'he':\n        return math.sqrt(2 / fan_in)\n"
        "    if kind is 'xavier':\n        return math.sqrt(2 / (fan_in + fan_out))\n"
        "    raise ValueError(kind)\n", encoding="utf-8")
    tests = checked_as_a_student(capsys, tmp_path, "init_std")
    he = next(t for t in tests if t["name"] == "test_he_std_for_fan_in_50_is_0_2")
    assert he["message"].startswith("init_std('he', 50, 50) raised ValueError"), he
    assert "compare kind with ==" in he["hint"] and "'is' compares objects" in he["hint"], he
    refused = next(t for t in tests if t["name"] == "test_unknown_kind_raises_value_error")
    assert refused["status"] == "failed" and refused["message"].startswith("init_std('xavier', 64, 64) raised ValueError")
    assert "compare kind with ==" in refused["hint"], refused
