"""Gradebooks: Canvas's import format matched to a roster, and what changed after a regrade."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
import zipfile
from dataclasses import replace

from autograder import cli
from autograder.gradebooks import canvas_gradebook, read_roster
from autograder.intake import Submission, read_submissions
from autograder.model import BatchResult, CheckResult, batch_from_dict, exercise_result, student_result, to_dict
from autograder.output import write_batch
from autograder.regrade import diff_runs
from autograder.render.tables import grade_row
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


COLUMN = "Homework 1 (4411)"


def roster_scores(tmp_path, students, submissions, roster: str = ROSTER) -> dict[str, str]:
    """canvas.csv's cell for each roster row, by its Canvas id."""
    path = tmp_path / "roster.csv"
    path.write_text(roster, encoding="utf-8")
    text = canvas_gradebook(students, read_roster(path), tuple(submissions), COLUMN).text
    return {row[1]: row[5] for row in csv.reader(io.StringIO(text)) if row[1] and row[1] != "ID"}


def _student(sid: str, score: float, aliases: tuple[str, ...] = ()):
    check = CheckResult("test_x", "X.", score, 13.0, "passed" if score == 13.0 else "failed")
    return replace(student_result(sid, (exercise_result("scalar_chain", "Chain", (check,)),)), aliases=aliases)


def test_a_student_kept_from_an_earlier_run_gets_their_stored_score_matched_by_stored_aliases(tmp_path):
    """The on-time export graded Amara (Canvas user id 1234) as 'okaforamara'; the late run's export
    holds only Ben. Roster rows were matched by this run's submissions alone: Amara got 0."""
    on_time = BatchResult(5, "process", (_student("okaforamara", 13.0, ("1234",)),), "0.1.0", "2026-11-29")
    write_batch(on_time, tmp_path / "out", ROOT / "templates")
    stored = batch_from_dict(json.loads((tmp_path / "out" / "results.json").read_text()))
    assert stored.students[0].aliases == ("1234",)  # kept with the result
    ben = _student("carterben", 4.0, ("2345",))
    late = Submission("carterben", tmp_path, aliases=("2345",))
    rows = [grade_row(s) for s in (*stored.students, ben)]
    assert roster_scores(tmp_path, rows, [late]) == {"1234": "13", "2345": "4", "3456": "0"}


def test_a_gradescope_display_name_is_not_an_alias_a_roster_matches(tmp_path):
    """Students set their own Gradescope name: Bob named himself 'amara', and the roster's Amara
    (login amara@school.edu), who handed in nothing, got Bob's score. SID and email still match."""
    export = tmp_path / "export"
    export.mkdir()
    (export / "submission_metadata.yml").write_text("""submission_1:
  :submitters:
  - :name: amara
    :sid: 'S-002'
    :email: bob@example.edu
  :created_at: 2026-11-01 10:00:00.000000000 -07:00
submission_2:
  :submitters:
  - :name: Zoe Zed
    :email: zoe@school.edu
  :created_at: 2026-11-01 10:00:00.000000000 -07:00
""")
    for key in ("submission_1", "submission_2"):
        (export / key).mkdir()
        (export / key / "scalar_chain.py").write_text("x = 1\n")
    intake = read_submissions(export, tmp_path / "work", ("scalar_chain",))
    assert all("amara" not in s.aliases for s in intake.submissions)
    rows = [grade_row(_student("S-002", 7.0)), grade_row(_student("zoe@school.edu", 5.0))]
    assert roster_scores(tmp_path, rows, intake.submissions) == {"1234": "0", "2345": "7", "3456": "5"}


def test_a_decomposed_name_matches_its_composed_spelling_in_the_roster(tmp_path):
    """macOS zips write names decomposed (NFD); Canvas's roster holds them composed (NFC)."""
    roster = ROSTER.replace("amara@school.edu", "\u00e9mile@school.edu")
    nfd = unicodedata.normalize("NFD", "\u00e9mile")
    assert nfd != "\u00e9mile"
    rows = [grade_row(_student(nfd, 9.0))]
    assert roster_scores(tmp_path, rows, [Submission(nfd, tmp_path)], roster)["1234"] == "9"


def test_canvas_ids_come_back_as_canvas_wrote_them_and_only_free_text_gets_an_apostrophe(tmp_path):
    """Canvas matches a row on its ids: an SIS id such as -0042 given an apostrophe matched no one;
    a name, or an id that could hold a call or a reference, is still kept as text."""
    roster = (ROSTER.replace('"Okafor, Amara",1234,S-001', "-Amara,1234,-0042").replace("S-002", "=1+2")
              .replace("S-003", "+7x"))
    path = tmp_path / "roster.csv"
    path.write_text(roster, encoding="utf-8")
    rows = [grade_row(_student("carterben", 13.0))]
    text = canvas_gradebook(rows, read_roster(path), (Submission("carterben", tmp_path),), COLUMN).text
    cells = {row[1]: row for row in csv.reader(io.StringIO(text)) if row[1] not in ("", "ID")}
    assert cells["1234"][:3] == ["'-Amara", "1234", "-0042"] and cells["3456"][2] == "+7x"
    assert cells["2345"][2] == "'=1+2" and cells["2345"][5] == "13"


def test_diff_shows_ids_that_differ_only_by_an_unseen_character_apart():
    """Through one_line, 'evil\\nmallory' was printed as classmate 'evil mallory' (and an escape
    sequence in an id reached the terminal): each id is shown so no two look alike."""
    ids = ("evil\nmallory", "evil mallory", "\u202eabc", "abc", "evil\\x0amallory", "x\x1b]0;owned\x07")
    old = BatchResult(1, "process", ())
    new = BatchResult(1, "process", tuple(_student(sid, 1.0) for sid in ids))
    text = diff_runs(old, new)
    shown = [line.split(": new in this run")[0] for line in text.splitlines() if ": new in this run" in line]
    assert len(shown) == len(set(shown)) == len(ids)
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "evil\\x0amallory" in shown and "evil\\\\x0amallory" in shown


def test_a_submission_whose_id_spells_a_classmates_canvas_id_takes_no_row_of_theirs(tmp_path, capsys):
    """A red team: Mallory's login was "1234", Amara's Canvas ID; the first id in sorted order won, so
    Mallory's score went to Amara's row (and could as well sink it). An id that names two
    submissions names neither; the rows still have ids that name one student each."""
    roster = ROSTER + '"Eve, Mallory",5678,S-004,1234@school.edu,Section B,\n'
    mallory = _student("1234", 13.0, ("5678",))
    amara = _student("amara", 2.0, ("1234",))
    submissions = [Submission("1234", tmp_path, aliases=("5678",)), Submission("amara", tmp_path, aliases=("1234",))]
    scores = roster_scores(tmp_path, [grade_row(mallory), grade_row(amara)], submissions, roster)
    assert scores == {"1234": "2", "2345": "0", "3456": "0", "5678": "13"}


def test_a_row_whose_ids_name_two_submissions_is_left_blank_and_said(tmp_path, capsys):
    """GitHub Classroom: a repository "hw1-1234" is a login of the student's choosing, and it is
    Amara's Canvas ID, while her own repository is "hw1-amara". Her row names two submissions: it
    is left blank, with a warning, rather than given either score."""
    from autograder.gradebooks import write_canvas

    rows = [grade_row(_student("1234", 0.0)), grade_row(_student("amara", 13.0)), grade_row(_student("zoe", 5.0))]
    submissions = (Submission("1234", tmp_path), Submission("amara", tmp_path), Submission("zoe", tmp_path))
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    write_canvas(out, rows, read_roster(path), submissions, COLUMN, path)
    cells = {row[1]: row[5] for row in csv.reader(io.StringIO((out / "canvas.csv").read_text())) if row[1] not in ("", "ID")}
    assert cells == {"1234": "", "2345": "0", "3456": "5"}
    err = capsys.readouterr().err
    assert "'Okafor, Amara'" in err and "left blank" in err


def test_one_submission_named_by_two_rows_gives_its_score_to_neither(tmp_path):
    """Ben's submission "s-003" is his own login and Zoe's SIS id: one score for two students is
    at least one wrong, so both rows are left blank."""
    roster = ROSTER.replace("carterben@school.edu", "s-003@school.edu")
    scores = roster_scores(tmp_path, [grade_row(_student("s-003", 13.0))], [Submission("s-003", tmp_path)], roster)
    assert scores == {"1234": "0", "2345": "", "3456": ""}


def test_a_name_slug_that_is_a_classmates_login_costs_neither_their_row(tmp_path):
    """Honest collisions must not blank a class: Lee Jin's Canvas file name gives the id "leejin",
    which is also the login of Park Leejin. Each row's Canvas ID names its own student first."""
    roster = ROSTER + '"Lee, Jin",1111,S-010,jlee@school.edu,Section A,\n"Park, Leejin",5555,S-011,leejin@school.edu,Section A,\n'
    rows = [grade_row(_student("leejin", 9.0, ("1111",))), grade_row(_student("parkleejin", 7.0, ("5555",)))]
    submissions = [Submission("leejin", tmp_path, aliases=("1111",)), Submission("parkleejin", tmp_path, aliases=("5555",))]
    scores = roster_scores(tmp_path, rows, submissions, roster)
    assert scores == {"1234": "0", "2345": "0", "3456": "0", "1111": "9", "5555": "7"}
