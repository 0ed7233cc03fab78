"""Gradebooks: Canvas's import format matched to a roster, and what changed after a regrade."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import replace

from autograder import cli
from autograder.model import BatchResult, CheckResult, exercise_result, student_result, to_dict
from autograder.regrade import diff_runs
from conftest import ROOT

# Canvas's gradebook export: the id columns, an assignment column, a "Points Possible" row.
ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (4411)
    Points Possible,,,,,10
"Okafor, Amara",1234,S-001,amara@school.edu,Section A,
"Carter, Ben",2345,S-002,carterben@school.edu,Section A,
"Zed, Zoe",3456,S-003,zoe@school.edu,Section B,
"""


def test_canvas_gradebook_from_a_canvas_download(capsys, tmp_path):
    source = tmp_path / "submissions.zip"
    reference = (ROOT / "solutions" / "scalar_chain.py").read_text()
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("okaforamara_1234_77_scalar_chain.py", reference)   # matched by Canvas user id
        archive.writestr("carterben_late_2345_78_Scalar_Chain.py", reference)  # by login; a near miss
        archive.writestr("strangerdan_9999_79_scalar_chain.py", reference)   # on no roster
    (tmp_path / "roster.csv").write_text(ROSTER)
    out = tmp_path / "out"
    code = cli.main(["grade", str(source), "--out", str(out), "--canvas", str(tmp_path / "roster.csv"),
                     "--canvas-column", "Homework 1 (4411)", "--seed", "5", "--jobs", "1", "--allow-unsandboxed"])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert "'strangerdan' has a submission but no row" in err
    rows = list(csv.reader(io.StringIO((out / "canvas.csv").read_text())))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Homework 1 (4411)"]
    assert rows[1][0].strip() == "Points Possible"
    scores = {row[1]: float(row[5]) for row in rows[2:]}
    results = {s["id"]: s for s in json.loads((out / "results.json").read_text())["students"]}
    assert results["okaforamara"]["score"] > 0
    assert scores == {"1234": results["okaforamara"]["score"], "2345": 0.0, "3456": 0.0}
    ben = results["carterben"]
    assert "Scalar_Chain.py" in ben["exercises"][0]["message"] and "not submitted" not in ben["exercises"][0]["message"]
    assert "Canvas marked this submission late." in ben["notices"]
    assert "Scalar_Chain.py" in (out / "reports" / "carterben.html").read_text()
    assert "Canvas marked this submission late." in (out / "reports" / "carterben.md").read_text()


def _batch(status: str, score: float, seed: int = 1) -> BatchResult:
    checks = (CheckResult("test_sign", "Keeps the sign.", score, 2.0, status),
              CheckResult("test_depth", "Depth 0.", 1.0, 1.0, "passed"))
    exercises = (exercise_result("scalar_chain", "Chain", checks),)
    return BatchResult(seed, "process", (student_result("ada", exercises), student_result("bo", exercises)))


def test_diff_names_the_student_the_check_and_why():
    old, new = _batch("failed", 0.0), _batch("passed", 2.0)
    new = replace(new, students=new.students[:1] + (student_result("cy", ()),))
    text = diff_runs(old, new)
    assert "ada: 1/3 -> 3/3" in text
    assert "scalar_chain/test_sign: 0 -> 2 (failed -> passed)" in text
    assert "bo: not in the new run" in text and "cy: new in this run" in text
    assert "No student's result changed." in diff_runs(old, old)


def test_diff_command_reads_two_output_folders(capsys, tmp_path):
    for name, batch in (("old", _batch("failed", 0.0, 1)), ("new", _batch("passed", 2.0, 2))):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(to_dict(batch)))
    assert cli.main(["diff", str(tmp_path / "old"), str(tmp_path / "new")]) == 0
    out = capsys.readouterr().out
    assert "Seeds differ (1 -> 2)" in out and "2 of 2 students changed." in out
    assert cli.main(["diff", str(tmp_path / "old"), str(tmp_path / "nope")]) == 2
