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
