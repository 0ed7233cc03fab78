"""The command line as users meet it: help text, exit codes, one-sentence errors, outputs."""

from __future__ import annotations

import json
import shutil

import pytest

from autograder import cli
from conftest import COURSE, ROOT


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_documents_commands_and_exit_codes(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for text in ("check", "grade", "exit codes:", "refused: grade will not run student code"):
        assert text in out


def test_grade_help_documents_its_options(capsys):
    code, out, _ = run(capsys, "grade", "--help")
    assert code == 0
    for option in ("--out", "--seed", "--jobs", "--timeout", "--memory-mb", "--isolation", "--allow-unsandboxed"):
        assert option in out


def test_bad_usage_exits_2(capsys):
    code, _, err = run(capsys, "grade", "somewhere")
    assert code == 2 and "--out" in err


def test_missing_submissions_folder_is_one_sentence(capsys, tmp_path):
    code, _, err = run(capsys, "grade", str(tmp_path / "nope"), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and err.rstrip().endswith(".")


def test_output_inside_submissions_is_refused(capsys, tmp_path):
    (tmp_path / "ada").mkdir()
    code, _, err = run(capsys, "grade", str(tmp_path), "--out", str(tmp_path / "out"), "--allow-unsandboxed")
    assert code == 2 and "outside the submissions" in err
    assert not (tmp_path / "out").exists()


def test_check_of_missing_folder_is_one_sentence(capsys, tmp_path):
    code, _, err = run(capsys, "check", str(tmp_path / "nope"))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_no_arguments_checks_the_stubs_and_fails(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys)
    assert code == 1
    assert "Gradient kit: exercises" in out and "not implemented yet" in out


def test_check_of_the_reference_passes_and_writes_markdown_and_json(capsys, tmp_path):
    code, out, _ = run(capsys, "check", str(ROOT / "solutions"), "--seed", "3",
                       "--markdown", str(tmp_path / "r.md"), "--json", str(tmp_path / "r.json"))
    assert code == 0, out
    assert "100%" in out and "seed 3" in out
    assert (tmp_path / "r.md").read_text().startswith("# Feedback for solutions")
    assert json.loads((tmp_path / "r.json").read_text())["seed"] == 3


def test_grade_writes_every_output_for_every_student(capsys, tmp_path):
    submissions = tmp_path / "class"
    (submissions / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "scalar_chain.py", submissions / "ada")
    (submissions / "bo b").mkdir()
    (submissions / ".git").mkdir()
    (submissions / "notes.txt").write_text("not a student")
    code, out, err = run(capsys, "grade", str(submissions), "--out", str(tmp_path / "out"), "--seed", "11",
                         "--jobs", "1", "--allow-unsandboxed")
    assert code == 0, err
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["seed"] == 11
    assert [s["id"] for s in results["students"]] == ["ada", "bo b"]
    ada = results["students"][0]
    assert ada["exercises"][0]["score"] == ada["exercises"][0]["max_score"] > 0
    assert results["students"][1]["status"] == "empty"
    gradebook = (tmp_path / "out" / "gradebook.csv").read_text().splitlines()
    assert gradebook[0] == ",".join(["id", *[e.name for e in COURSE], "total", "max", "status"])
    assert len(gradebook) == 3
    reports = sorted(p.name for p in (tmp_path / "out" / "reports").iterdir())
    assert "ada.html" in reports and "ada.md" in reports and len(reports) == 4
    assert "[1/2]" in err or "[2/2]" in err


@pytest.mark.parametrize("command", [["check", "--help"], ["grade", "--help"]])
def test_readme_commands_are_the_ones_the_cli_accepts(capsys, command):
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e . && python grade.py grade examples/class --out out/" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    assert run(capsys, *command)[0] == 0
