"""The class dashboard (OUT/index.html) and summary.json: figures, flags, links, escaping."""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

from autograder.classview import _misconceptions, correlation, dashboard_view
from autograder.model import BatchResult, CheckResult, exercise_result, student_result
from autograder.output import write_batch
from autograder.render.dashboard import render_dashboard
from conftest import ROOT

TEMPLATES = ROOT / "templates"


def student(sid: str, passes: dict[str, bool], status: str = "graded", timeout: str = ""):
    checks = tuple(CheckResult(name, name.replace("_", " "), 1.0 if ok else 0.0, 1.0, "passed" if ok else "failed")
                   for name, ok in passes.items())
    if timeout:
        checks += (CheckResult(timeout, "hangs", 0.0, 1.0, "timeout", message="f(3) did not finish"),)
    return student_result(sid, (exercise_result("scalar_chain", "Chain", checks),), status)


def class_batch() -> BatchResult:
    # Five checks every strong student passes, and test_odd that only the weakest pass.
    rows = [student(f"s{i}", {**{f"test_{k}": k < i for k in range(5)}, "test_odd": i < 3}) for i in range(6)]
    return BatchResult(11, "process", tuple(rows), "0.1.0", "2026-11-29", "bubblewrap 0.11.0 (bundled)")


def test_point_biserial_matches_a_hand_computed_value():
    assert math.isclose(correlation([1, 1, 0, 0], [4, 3, 2, 1]), 2 / math.sqrt(5))
    assert correlation([1, 1, 1], [1, 2, 3]) is None  # everyone passed: nothing to correlate


def test_checks_are_hardest_first_and_a_check_strong_students_fail_is_flagged():
    view = dashboard_view(class_batch(), lambda sid: f"reports/{sid}.html")
    rates = [c.pass_rate for c in view.checks]
    assert rates == sorted(rates)
    flagged = {c.name for c in view.checks if c.flagged}
    assert flagged == {"test_odd"}
    odd = next(c for c in view.checks if c.name == "test_odd")
    assert odd.failing == ("s3", "s4", "s5") and odd.discrimination < 0


def test_distribution_and_averages_count_every_graded_student():
    view = dashboard_view(class_batch(), lambda sid: sid)
    assert sum(b.count for b in view.distribution) == 6
    # scores 1,2,3,3,4,5 of 6 -> mean 3.0 of 6 points
    assert view.exercises[0].average == "3.0/6" and view.exercises[0].percent == 50


def test_failed_and_timed_out_students_are_listed_with_their_report():
    batch = class_batch()
    broken = student_result("crashy", (), "error", "The grader itself failed while grading this submission (RuntimeError: x).")
    slow = student("slow", {"test_0": True}, timeout="test_hang")
    batch = BatchResult(1, "process", batch.students + (broken, slow))
    view = dashboard_view(batch, lambda sid: f"reports/{sid}.html")
    trouble = {t.student: (t.link, t.what) for t in view.trouble}
    assert set(trouble) == {"crashy", "slow"}
    assert trouble["slow"] == ("reports/slow.html", "timed out in scalar_chain")
    assert view.graded == 7  # the crashed row has no score to average


def test_misconceptions_read_from_results_once_they_carry_a_diagnosis():
    exercise = SimpleNamespace(diagnosis=SimpleNamespace(title="one matrix reused at every layer"))
    students = [SimpleNamespace(id=i, exercises=(exercise,)) for i in ("a", "b")]
    [found] = _misconceptions(students)
    assert (found.name, found.count, found.students) == ("one matrix reused at every layer", 2, ("a", "b"))
    html = render_dashboard(dashboard_view(class_batch(), str), TEMPLATES)
    assert "No diagnosed misconceptions in this run." in html


def test_write_batch_writes_a_dashboard_whose_links_all_resolve(tmp_path):
    odd = student("../<img src=x onerror=alert(1)>", {"test_0": False})
    batch = BatchResult(99, "process", class_batch().students + (odd,), sandbox="bubblewrap 0.8.0 (system)")
    write_batch(batch, tmp_path, TEMPLATES)
    html = (tmp_path / "index.html").read_text()
    links = re.findall(r'href="([^"]+)"', html)
    assert len(links) == len(batch.students) and all((tmp_path / link).is_file() for link in links)
    assert "<img" not in html and "&lt;img src=x" in html
    assert "seed 99" in html and "isolation: bubblewrap 0.8.0 (system)" in html
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["seed"] == 99 and summary["misconceptions"] == []
    assert [c["name"] for c in summary["checks"]][:1] == ["test_4"]  # passed by s5 alone: the hardest
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")  # self-contained: nothing fetched


def test_a_graded_diagnosis_reaches_the_dashboard_named_with_its_exercise():
    from autograder.model import Diagnosis, ExerciseResult
    diagnosis = Diagnosis("off_by_one_depth", "one layer too few", "It counts one fewer.", "Count the factors.")
    students = [SimpleNamespace(id=i, exercises=(ExerciseResult("scalar_chain", "Chain", 2, 13, "graded",
                                                                 diagnosis=diagnosis if i != "c" else None),))
                for i in ("a", "b", "c")]
    [found] = _misconceptions(students)
    assert (found.name, found.count, found.students) == ("scalar_chain: one layer too few", 2, ("a", "b"))


def test_dashboard_links_of_ids_with_percent_and_hash_open_that_students_own_report(tmp_path):
    """A browser decodes an address: 'a%62''s link opened classmate 'ab''s report, and 'x#y''s
    stopped at the '#' (reports/x). Each link, read as a browser reads it, is its student's file."""
    from urllib.parse import unquote, urlsplit

    ids = ("a%62", "ab", "x#y", "x", "100%", "s3")
    crashy = student_result("e%41#1", (), "error", "The grader itself failed while grading this submission.")
    batch = BatchResult(1, "process", tuple(student(i, {"test_0": True}) for i in ids) + (crashy,))
    reports = write_batch(batch, tmp_path, TEMPLATES)
    html = (tmp_path / "index.html").read_text()
    opened = {}
    for cell, link in re.findall(r'<td(?: data-value="[^"]*")?><a href="([^"]+)">([^<]*)</a>', html):
        opened.setdefault(link.replace("&amp;", "&"), set()).add(tmp_path / unquote(urlsplit(cell).path))
    assert opened == {sid: {reports[sid]} for sid in (*ids, "e%41#1")}
