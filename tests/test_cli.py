"""The command line as users meet it: help text, exit codes, one-sentence errors, outputs."""

from __future__ import annotations

import datetime as dt
import json
import re
import os
import shutil
import stat

import pytest

from autograder import cli
from autograder.render.inert import shown_id
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
    for option in ("--out", "--only", "--fresh", "--seed", "--jobs", "--shard-size", "--timeout", "--memory-mb", "--isolation", "--workers",
                   "--allow-unsandboxed", "merges by student id", "percent"):
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
    assert gradebook[0] == ",".join(["id", *[e.name for e in COURSE], "total", "max", "percent", "status", "report"])
    ada_row = gradebook[1].split(",")
    assert ada_row[-1] == "reports/ada.html" and (out_dir := tmp_path / "out" / ada_row[-1]).is_file(), out_dir
    total, maximum, percent = (float(v) for v in ada_row[-5:-2])
    assert 0 < total < maximum and percent == round(100 * total / maximum, 1)
    assert gradebook[2].endswith(",0,empty,reports/bo b.html")
    assert len(gradebook) == 3
    reports = sorted(p.name for p in (tmp_path / "out" / "reports").iterdir())
    assert "ada.html" in reports and "ada.md" in reports and len(reports) == 4
    assert "grading 2/2 100%" in err  # the progress line, plain when stderr is not a terminal


@pytest.mark.parametrize("command", [["check", "--help"], ["grade", "--help"]])
def test_readme_commands_are_the_ones_the_cli_accepts(capsys, command):
    readme = (ROOT / "README.md").read_text()
    assert "pip install -e . && python grade.py grade examples/class --out out/" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    assert run(capsys, *command)[0] == 0


# Output folders: merge, --only, --fresh, refusals ------------------------------------------------

SAMPLE = ROOT / "examples" / "class"
FAST = ("--isolation", "process", "--allow-unsandboxed", "--jobs", "1", "--timeout", "2")


def copy_students(into, **students):
    """Student folders named by the keys, copied from the sample students named by the values."""
    into.mkdir(parents=True, exist_ok=True)
    for name, sample in students.items():
        shutil.copytree(SAMPLE / sample, into / name)
    return into


def stored(out):
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def gradebook(out):
    import csv
    return list(csv.DictReader((out / "gradebook.csv").read_text(encoding="utf-8").splitlines()))


def assert_consistent(out, ids):
    """results.json, the gradebook and reports/ describe exactly the students ``ids``."""
    assert [s["id"] for s in stored(out)["students"]] == sorted(ids)
    rows = gradebook(out)
    # The gradebook spells an unseen character, and so a backslash, as its escape: ids stay apart there.
    assert [r["id"] for r in rows] == [shown_id(i) for i in sorted(ids)]
    linked = {r["report"] for r in rows}
    assert all((out / link).is_file() and (out / link).with_suffix(".md").is_file() for link in linked)
    assert {f"reports/{p.name}" for p in (out / "reports").iterdir() if p.suffix == ".html"} == linked


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """Three students graded once into OUT; tests copy OUT before changing it."""
    base = tmp_path_factory.mktemp("merge")
    submissions = copy_students(base / "class", amara_okafor="amara_okafor", fatima_haddad="fatima_haddad",
                                **{"Émile-Zoë": "gus_mueller"})
    assert cli.main(["grade", str(submissions), "--out", str(base / "out"), "--seed", "4", *FAST]) == 0
    return submissions, base / "out"


@pytest.fixture
def out(graded_class, tmp_path):
    shutil.copytree(graded_class[1], tmp_path / "out")
    return tmp_path / "out"


def test_unicode_names_get_readable_reports_linked_from_the_gradebook(graded_class):
    _submissions, out = graded_class
    assert (out / "reports" / "Émile-Zoë.html").is_file() and (out / "reports" / "Émile-Zoë.md").is_file()
    rows = {r["id"]: r for r in gradebook(out)}
    assert rows["Émile-Zoë"]["report"] == "reports/Émile-Zoë.html"
    assert rows["amara_okafor"]["percent"] == "100" and rows["amara_okafor"]["status"] == "graded"
    assert_consistent(out, ["amara_okafor", "fatima_haddad", "Émile-Zoë"])


def test_grading_one_student_into_a_class_folder_keeps_the_others(capsys, out, tmp_path, graded_class):
    before = {s["id"]: s for s in stored(out)["students"]}
    late = copy_students(tmp_path / "late", ben_carter="ben_carter")
    code, text, err = run(capsys, "grade", str(late), "--out", str(out), *FAST)
    assert code == 0, err
    assert "keeping 3 stored results" in err and "seed 4" in err and "1 graded now, 3 kept" in text
    after = {s["id"]: s for s in stored(out)["students"]}
    assert stored(out)["seed"] == 4
    assert {i: after[i] for i in before} == before
    assert after["ben_carter"]["status"] == "graded" and after["ben_carter"]["graded"] != before["amara_okafor"]["graded"]
    assert_consistent(out, ["amara_okafor", "ben_carter", "fatima_haddad", "Émile-Zoë"])
    kept_report = (out / "reports" / "amara_okafor.html").read_text(encoding="utf-8")
    assert before["amara_okafor"]["graded"] in kept_report  # a kept report keeps its own grading time


def test_a_regraded_student_is_replaced_not_added(capsys, out, tmp_path):
    again = copy_students(tmp_path / "again", fatima_haddad="amara_okafor")  # fatima now hands in everything
    old_report = (out / "reports" / "fatima_haddad.md").read_text(encoding="utf-8")
    code, _, err = run(capsys, "grade", str(again), "--out", str(out), *FAST)
    assert code == 0, err
    rows = {r["id"]: r for r in gradebook(out)}
    assert rows["fatima_haddad"]["percent"] == "100" and len(rows) == 3
    assert (out / "reports" / "fatima_haddad.md").read_text(encoding="utf-8") != old_report
    assert_consistent(out, ["amara_okafor", "fatima_haddad", "Émile-Zoë"])


def test_only_regrades_the_named_students(capsys, out, graded_class):
    submissions, _ = graded_class
    before = {s["id"]: s for s in stored(out)["students"]}
    code, text, err = run(capsys, "grade", str(submissions), "--only", "Émile-Zoë", "--out", str(out), *FAST)
    assert code == 0, err
    assert "Grading 1 students" in err and "1 graded now, 2 kept" in text
    after = {s["id"]: s for s in stored(out)["students"]}
    assert after["amara_okafor"] == before["amara_okafor"] and after["fatima_haddad"] == before["fatima_haddad"]
    assert after["Émile-Zoë"]["graded"] != before["Émile-Zoë"]["graded"]
    assert_consistent(out, list(before))


def test_only_with_an_unknown_id_is_one_sentence_and_writes_nothing(capsys, out, graded_class):
    submissions, _ = graded_class
    before = snapshot(out)
    code, _, err = run(capsys, "grade", str(submissions), "--only", "amara_okafor", "fatima_hadad",
                       "--out", str(out), *FAST)
    assert code == 2 and err.count("\n") == 1 and err.rstrip().endswith(".")
    assert "'fatima_hadad'" in err and "did you mean 'fatima_haddad'" in err
    assert snapshot(out) == before


def test_a_foreign_folder_is_refused_and_left_as_it_was(capsys, tmp_path, graded_class):
    submissions, _ = graded_class
    foreign = tmp_path / "thesis"
    foreign.mkdir()
    (foreign / "chapter1.tex").write_text("years of work")
    code, _, err = run(capsys, "grade", str(submissions), "--out", str(foreign), *FAST)
    assert code == 2 and err.count("\n") == 1 and "not empty" in err
    assert snapshot(foreign) == {"chapter1.tex": b"years of work"} and os.listdir(foreign) == ["chapter1.tex"]
    code, _, err = run(capsys, "grade", str(submissions), "--out", str(foreign), "--fresh", *FAST)
    assert code == 2 and os.listdir(foreign) == ["chapter1.tex"]


@pytest.mark.parametrize("damage", [lambda text: text[: len(text) // 2],
                                    lambda text: re.sub(r'"score": ([0-9.]+)', r'"score": "\1"', text, count=1)])
def test_damaged_results_are_refused_never_overwritten(capsys, out, graded_class, damage):
    submissions, _ = graded_class
    results = out / "results.json"
    results.write_text(damage(results.read_text(encoding="utf-8")), encoding="utf-8")
    before = snapshot(out)
    for extra in ((), ("--fresh",), ("--seed", "4")):
        code, _, err = run(capsys, "grade", str(submissions), "--out", str(out), *FAST, *extra)
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
        assert str(results) in err and "Traceback" not in err
        assert snapshot(out) == before


def test_a_different_explicit_seed_is_refused_unless_fresh(capsys, out, tmp_path):
    late = copy_students(tmp_path / "late", ben_carter="ben_carter")
    before = snapshot(out)
    code, _, err = run(capsys, "grade", str(late), "--out", str(out), "--seed", "5", *FAST)
    assert code == 2 and "seed 4, not 5" in err and "--fresh" in err
    assert snapshot(out) == before
    code, _, err = run(capsys, "grade", str(late), "--out", str(out), "--seed", "5", "--fresh", *FAST)
    assert code == 0, err
    assert stored(out)["seed"] == 5
    assert_consistent(out, ["ben_carter"])  # --fresh drops the stored students and their reports


def test_a_same_explicit_seed_merges(capsys, out, tmp_path):
    late = copy_students(tmp_path / "late", ben_carter="ben_carter")
    code, _, err = run(capsys, "grade", str(late), "--out", str(out), "--seed", "4", *FAST)
    assert code == 0, err
    assert_consistent(out, ["amara_okafor", "ben_carter", "fatima_haddad", "Émile-Zoë"])


def test_names_that_clash_on_some_disks_get_distinct_reports_across_runs(capsys, tmp_path):
    out = tmp_path / "out"
    (tmp_path / "one" / "Ada").mkdir(parents=True)
    assert run(capsys, "grade", str(tmp_path / "one"), "--out", str(out), *FAST)[0] == 0
    assert sorted(os.listdir(out / "reports")) == ["Ada.html", "Ada.md"]
    (tmp_path / "two" / "ada").mkdir(parents=True)
    assert run(capsys, "grade", str(tmp_path / "two"), "--out", str(out), *FAST)[0] == 0
    reports = sorted(os.listdir(out / "reports"))
    assert len(reports) == 4 and "Ada.html" not in reports  # renamed, and the old name removed
    assert len({name.casefold() for name in reports}) == 4
    assert_consistent(out, ["Ada", "ada"])


@pytest.mark.parametrize("mask, file_mode, folder_mode", [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)])
def test_grade_outputs_follow_the_umask(capsys, tmp_path, mask, file_mode, folder_mode):
    (tmp_path / "class" / "ada").mkdir(parents=True)
    previous = os.umask(mask)
    try:
        code = run(capsys, "grade", str(tmp_path / "class"), "--out", str(tmp_path / "new" / "out"), *FAST)[0]
    finally:
        os.umask(previous)
    assert code == 0
    paths = [tmp_path / "new", tmp_path / "new" / "out", *(tmp_path / "new" / "out").rglob("*")]
    # new, out, results, gradebook, index.html, summary.json, reports, 2 reports, .store, run.json, ada's record
    assert len(paths) == 12
    for path in paths:
        assert stat.S_IMODE(path.stat().st_mode) == (folder_mode if path.is_dir() else file_mode), path


def test_a_student_folder_name_that_is_not_utf8_costs_nobody_their_grade(capsys, tmp_path):
    """Its bytes are escaped in its id, unique against a classmate literally named so, and said."""
    classdir = tmp_path / "class"
    copy_students(classdir, ada="eli_novak")
    (classdir / "bad\\xffname").mkdir()  # a folder whose name is the escape itself, written out
    shutil.copytree(ROOT / "solutions", os.fsdecode(os.fsencode(classdir) + b"/bad\xffname"))
    code, _, err = run(capsys, "grade", str(classdir), "--out", str(tmp_path / "out"), *FAST)
    assert code == 0, err
    assert "not valid UTF-8" in err and "'bad\\xffname-2'" in err
    assert_consistent(tmp_path / "out", ["ada", "bad\\xffname", "bad\\xffname-2"])
    students = {s["id"]: s for s in stored(tmp_path / "out")["students"]}
    assert students["bad\\xffname"]["status"] == "empty"
    escaped = students["bad\\xffname-2"]
    assert escaped["score"] == escaped["max_score"] > 0
    code, _, err = run(capsys, "grade", str(classdir), "--out", str(tmp_path / "out"), "--only", "bad\\xffname-2", *FAST)
    assert code == 0, err
    assert_consistent(tmp_path / "out", ["ada", "bad\\xffname", "bad\\xffname-2"])


def test_an_output_folder_that_cannot_be_written_is_refused_before_grading(capsys, tmp_path, monkeypatch):
    from autograder import stored as stored_module
    (tmp_path / "class" / "ada").mkdir(parents=True)
    (tmp_path / "locked").mkdir()
    # Root may write anywhere, so the permission answer is faked; what is tested is the refusal.
    monkeypatch.setattr(stored_module.os, "access", lambda path, mode: str(path) != str(tmp_path / "locked"))
    from autograder import gradecmd
    monkeypatch.setattr(gradecmd, "deliver_batch", lambda *a, **k: pytest.fail("graded although nothing could be saved"))
    code, _, err = run(capsys, "grade", str(tmp_path / "class"), "--out", str(tmp_path / "locked" / "out"), *FAST)
    assert code == 2 and "is not writable" in err and err.count("\n") == 1
    assert not (tmp_path / "locked" / "out").exists()


def test_check_defaults_to_the_days_seed_and_grade_to_a_fresh_one():
    today = int(dt.date.today().strftime("%Y%m%d"))
    assert cli.default_seed("check") == today and cli.default_seed(None) == today
    assert {cli.default_seed("grade") for _ in range(5)} != {today}
