"""Golden end-to-end cases: every folder in tests/golden is a student with an expected.json.

The whole folder is graded once by the real command line in a subprocess, then each scenario's
hand-written expectations are checked against results.json.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.model import batch_from_dict
from autograder.names import report_stems
from autograder.render.terminal import render_terminal
from autograder.view import report_view
from conftest import COURSE, ROOT

GOLDEN = ROOT / "tests" / "golden"
SCENARIOS = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    out = tmp_path_factory.mktemp("golden-out")
    completed = subprocess.run(
        [sys.executable, str(ROOT / "grade.py"), "grade", str(GOLDEN), "--out", str(out), "--seed", "7",
         "--timeout", "1", "--jobs", "2", "--allow-unsandboxed"],
        capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr
    results = json.loads((out / "results.json").read_text())
    return {s["id"]: s for s in results["students"]}, out


def _check_exercise(name: str, got: dict, want: dict) -> None:
    assert got["status"] == want["status"], f"{name}: status {got['status']}"
    score = want.get("score")
    if score == "full":
        assert got["score"] == got["max_score"] > 0, f"{name}: {got['score']}/{got['max_score']}"
    elif score == "some":
        assert 0 < got["score"] < got["max_score"], f"{name}: {got['score']}/{got['max_score']}"
    elif score is not None:
        assert got["score"] == score, f"{name}: {got['score']}"
    statuses = {t["status"] for t in got["tests"]}
    if "statuses" in want:
        assert statuses <= set(want["statuses"]) and statuses & (set(want["statuses"]) - {"passed"}), statuses
    if "message_contains" in want:
        for test in got["tests"]:
            if test["status"] != "passed":  # an exercise-wide cause is stored once, for the exercise
                message = test["message"] or (got["problem"] or {}).get("message", "")
                assert re.search(want["message_contains"], message), message
    if want.get("output_cut"):
        assert any(t["output"] and t["output"]["cut"] > 0 for t in got["tests"])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_golden_scenario(graded, scenario):
    students, out = graded
    expected = json.loads((GOLDEN / scenario / "expected.json").read_text())
    got = students[scenario]
    assert got["status"] == expected["status"]
    exercises = {e["name"]: e for e in got["exercises"]}
    assert list(exercises) == [e.name for e in COURSE]
    for name, exercise in exercises.items():
        if name not in expected["exercises"]:  # only an exercise the scenario leaves out may go unmentioned
            assert not (GOLDEN / scenario / f"{name}.py").exists(), f"{scenario}/expected.json says nothing of {name}"
        want = expected["exercises"].get(name, {"status": "missing", "score": 0})
        _check_exercise(name, exercise, want)
    assert (out / "reports" / f"{scenario}.html").is_file()
    assert (out / "reports" / f"{scenario}.md").is_file()


def test_every_scenario_has_a_row_in_the_gradebook(graded):
    _students, out = graded
    rows = (out / "gradebook.csv").read_text().splitlines()
    assert rows[0].split(",") == ["id", *[e.name for e in COURSE], "total", "max", "percent", "status", "report"]
    assert sorted(r.split(",")[0] for r in rows[1:]) == SCENARIOS


# --- pinned reports: one normalized report per scenario in each format --------------------------
# Regenerate after an intended change with `UPDATE_GOLDENS=1 pytest tests/test_golden.py`, then
# read the diff: it is exactly what students will see change.
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"
FORMATS = ("txt", "md", "html")


def normalized(text: str, out: Path, results: dict) -> str:
    """A report with what differs between runs and hosts (time, sandbox, paths, version) blanked."""
    for value, placeholder in ((results["created"], "CREATED"), (results["sandbox"], "ISOLATION"),
                               (str(out), "OUT"), (str(ROOT), "ROOT")):
        if value:
            text = text.replace(value, placeholder)
    if results["version"]:
        text = re.sub(rf"\b{re.escape(results['version'])}\b", "VERSION", text)
    return text


def rendered(scenario: str, fmt: str, out: Path) -> str:
    results = json.loads((out / "results.json").read_text())
    if fmt == "txt":
        batch = batch_from_dict(results)
        student = next(s for s in batch.students if s.id == scenario)
        text = render_terminal(report_view(student, batch.seed, batch.sandbox, batch.created, batch.version), width=80)
    else:
        text = (out / "reports" / f"{report_stems([scenario])[scenario]}.{fmt}").read_text()
    return normalized(text, out, results)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_report_matches_its_pinned_golden(graded, scenario, fmt):
    _students, out = graded
    pinned = GOLDEN / scenario / f"report.{fmt}"
    text = rendered(scenario, fmt, out)
    if UPDATE:
        pinned.write_text(text, encoding="utf-8")
    assert pinned.is_file(), f"no pinned report: run UPDATE_GOLDENS=1 pytest {Path(__file__).name}"
    assert text == pinned.read_text(encoding="utf-8"), f"{pinned.name} changed; if intended, UPDATE_GOLDENS=1"


def test_a_timeout_names_the_public_call_that_hung_and_no_hidden_one(graded):
    students, _out = graded
    tests = students["hang"]["exercises"][0]["tests"]
    public = [t["message"] for t in tests if t["status"] == "timeout" and t["visibility"] == "public"]
    hidden = [t["message"] for t in tests if t["status"] == "timeout" and t["visibility"] == "hidden"]
    assert "scalar_gradient_chain(10, 0.25) did not finish within 1 second of computing time." in public
    assert hidden and not any(re.search(r"\(\d", m) for m in hidden)


def test_all_correct_covers_every_exercise():
    """A new exercise must come with a correct golden file: nothing defaults to "missing" here."""
    expected = json.loads((GOLDEN / "all_correct" / "expected.json").read_text())
    names = [e.name for e in COURSE]
    assert sorted(expected["exercises"]) == sorted(names)
    assert all(want == {"status": "graded", "score": "full"} for want in expected["exercises"].values())
    assert sorted(p.stem for p in (GOLDEN / "all_correct").glob("*.py")) == sorted(names)
