"""Renderers are pure functions of result data; student text is always inert in them."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from dataclasses import replace

import pytest

from autograder.classview import dashboard_view
from autograder.gradescope import gradescope_results
from autograder.model import (BatchResult, CheckResult, Output, batch_from_dict, exercise_result,
                              student_result)
from autograder.render.documents import code_block, escape_markdown, render_html, render_markdown
from autograder.render.inert import shown_id
from autograder.render.tables import render_gradebook, render_json
from autograder.render.terminal import render_class_summary, render_terminal
from autograder.view import report_view
from conftest import ROOT

TEMPLATES = ROOT / "templates"
HOSTILE = "<script>alert('x')</script> [click](http://evil.example) | ``` **bold**"


def sample_batch(student_id: str = "ada") -> BatchResult:
    checks = (
        CheckResult("test_ok", "Returns the right value.", 2.0, 2.0, "passed"),
        CheckResult("test_bad", "Keeps the sign.", 0.0, 1.0, "failed", message=f"f() returned {HOSTILE}",
                    hint="Do not take abs().", output=Output("printed " + HOSTILE, "tail", 1234)),
        CheckResult("test_boom", "Handles depth 0.", 0.0, 1.0, "error", message="f() raised ZeroDivisionError",
                    detail='  File "scalar_chain.py", line 3\n' + HOSTILE),
        CheckResult("test_hidden", "Matches on random inputs.", 0.0, 3.0, "pending", visibility="hidden"),
    )
    exercise = exercise_result("scalar_chain", "A gradient is a product of slopes", checks)
    missing = exercise_result("clipping", "Clipping", (CheckResult("test_x", "X.", 0.0, 2.0, "failed",
                                                                   message="clipping.py was not submitted."),),
                              "missing", "clipping.py was not submitted.")
    return BatchResult(41, "bubblewrap", (student_result(student_id, (exercise, missing)),), "0.1.0", "2026-11-29")


def test_scores_exclude_pending_hidden_checks():
    student = sample_batch().students[0]
    assert (student.score, student.max_score, student.pending_points) == (2.0, 6.0, 3.0)


def test_results_json_roundtrips_to_the_same_data():
    batch = sample_batch()
    assert batch_from_dict(json.loads(render_json(batch))) == batch


def test_results_json_has_the_documented_fields():
    data = json.loads(render_json(sample_batch()))
    assert list(data)[:2] == ["kit", "format"] and data["kit"] == "gradient-kit"
    assert data["seed"] == 41
    student = data["students"][0]
    assert {"id", "score", "max_score", "status", "exercises"} <= set(student)
    test = student["exercises"][0]["tests"][1]
    assert {"name", "score", "max_score", "status", "message", "hint", "visibility"} <= set(test)


def test_html_escapes_everything_a_student_controls():
    html = render_html(report_view(sample_batch("<b>eve</b>").students[0], 41, "bubblewrap"), TEMPLATES)
    assert "<script>" not in html and "<b>eve</b>" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;eve&lt;/b&gt;" in html
    assert "Do not take abs()." in html and "seed 41" in html


def test_markdown_neutralizes_links_html_and_table_breaks():
    text = escape_markdown(HOSTILE)
    assert "<script>" not in text and "](" not in text.replace("\\](", "")
    assert "\\|" in text and "\\*\\*bold" in text


GITHUB_TRAPS = "# H\r\n- item 1. @octo-org/team @ada #12 ada@example.com <!-- [x](http://e)\n=== ---"


def test_markdown_starts_no_line_block_mention_or_issue_reference():
    text = escape_markdown(GITHUB_TRAPS)
    assert "\n" not in text and "\r" not in text and text.startswith("\\#")
    assert not re.search(r"[@#][\w-]", text)  # GitHub pings and links these in the rendered text, escaped or not
    assert "@\u200bocto-org/team" in text and "\\#\u200b12" in text and "ada@\u200bexample.com" in text
    assert not re.search(r"(?<!\\)(<!--|\]\(|://)", text)
    for block in ("- item", "1. x", "  - x", "=== x", "---", "+ x", "3) x"):
        assert not re.match(r"\s*([-+=]|\d+[.)])", escape_markdown(block)), block


def test_markdown_links_no_commit_or_gh_reference():
    """GitHub links a bare commit SHA and GH-123 in a comment: a file name could point the class at any commit."""
    text = escape_markdown("see a5c3785ed8d6a35868bc169f07e40e889087fd2e, DEADBEEF1 and gh-12; got 1234567.0009765625")
    assert not re.search(r"[0-9a-f]{7}", text.replace("1234567", "").replace("0009765625", ""), re.I)
    assert not re.search(r"GH-\d", text, re.I)
    assert "1234567.0009765625" in text  # plain numbers stay whole


def test_markdown_opens_no_math():
    """Red team: GitHub renders $...$ and $$...$$ as math even after a backslash, so a file name could
    put a huge fake score into the CI comment."""
    text = escape_markdown("$\\Huge{116/116}$ and $$x$$ cost \\$5")
    assert "$" not in text
    assert text.count("&#36;") == 7


def test_a_message_at_the_start_of_a_line_opens_no_heading_or_block():
    student = student_result("ada", (exercise_result("scalar_chain", "S", ()),), message=GITHUB_TRAPS)
    md = render_markdown(report_view(student, 41, "bubblewrap"), TEMPLATES)
    starts = [line for line in md.splitlines() if re.match(r"[>\s]*([#<=+-]|\d+[.)])", line)]
    assert starts == ["# Feedback for ada: 0/0 (0%)", "## S (`scalar_chain.py`): 0/0"], starts


def test_code_blocks_cannot_be_closed_by_their_content():
    block = code_block("a ```` b")
    fence = block.split("text", 1)[0]
    assert len(fence) == 5 and block.endswith(fence)


def test_markdown_report_shows_failures_with_hints_and_output():
    md = render_markdown(report_view(sample_batch().students[0], 41, "bubblewrap"), TEMPLATES)
    assert "# Feedback for ada: 2/6 (33%)" in md
    assert "Hint: Do not take abs\\(\\)." in md or "Hint: Do not take abs()." in md
    assert "[... 1,234 characters cut ...]" in md
    assert "<script>" not in outside_code_blocks(md)
    assert "<script>" in md  # shown, but only inside a fenced block


def outside_code_blocks(markdown: str) -> str:
    kept, fence = [], None
    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
        elif fence is not None and stripped == fence:
            fence = None
        elif fence is None:
            kept.append(line)
    return "\n".join(kept)


def test_terminal_report_lists_failures_hints_and_hidden_checks():
    text = render_terminal(report_view(sample_batch().students[0], 41, "bubblewrap"), color=False, width=120)
    assert "f() returned" in text and "hint: Do not take abs()." in text
    assert "hidden: graded after submission" in text
    assert "3 more points from hidden checks" in text
    assert "\x1b[" not in text


def test_one_cause_behind_every_failure_is_said_once():
    same = CheckResult("t1", "A.", 0.0, 1.0, "failed", message="f() is not implemented yet", hint="Write it.")
    exercise = exercise_result("scalar_chain", "S", (same, CheckResult(**{**same.__dict__, "name": "t2"})))
    view = report_view(student_result("x", (exercise,)), 1, "process")
    assert view.exercises[0].common_problem == "f() is not implemented yet"
    assert all(c.message == "" for c in view.exercises[0].checks)
    assert render_terminal(view).count("not implemented yet") == 1


def test_gradebook_has_one_row_per_student_and_defuses_formulas():
    batch = sample_batch("=HYPERLINK(\"http://evil\")")
    rows = list(csv.reader(io.StringIO(render_gradebook(batch))))
    assert rows[0] == ["id", "scalar_chain", "clipping", "total", "max", "percent", "status", "report"]
    assert rows[1][0].startswith("'=") and rows[1][1:7] == ["2", "0", "2", "6", "33.3", "graded"]
    assert rows[1][7].startswith("reports/=HYPERLINK") and rows[1][7].endswith(".html") and "/" not in rows[1][7][8:]


@pytest.mark.parametrize("student_id", ["\t=1+1", " =1+1", "\r\n+cmd", "  @SUM(A1)", "\t-2"])
def test_gradebook_defuses_a_formula_behind_blanks(student_id):
    """Red team: a tab in an id became a space on one line, after the guard looked at the tab."""
    rows = list(csv.reader(io.StringIO(render_gradebook(sample_batch(student_id)))))
    assert rows[1][0].startswith("'")


def test_gradebook_names_each_students_own_report():
    students = (sample_batch("Ada").students[0], sample_batch("ada").students[0], sample_batch("Émile-Zoë").students[0])
    rows = list(csv.reader(io.StringIO(render_gradebook(BatchResult(1, "process", students)))))
    reports = [r[-1] for r in rows[1:]]
    assert reports[2] == "reports/Émile-Zoë.html"
    assert len({r.casefold() for r in reports}) == 3


def test_gradebook_percent_of_an_empty_maximum_is_zero():
    student = student_result("nobody", ())
    rows = list(csv.reader(io.StringIO(render_gradebook(BatchResult(1, "process", (student,))))))
    assert rows[1][1:4] == ["0", "0", "0"]


# What a student can print to take over a terminal: clear the screen and draw a fake total, set the
# window title, write the clipboard (OSC 52), the C1 form of CSI, a carriage return that
# overwrites a line, a bidirectional override, and a lone surrogate no encoder accepts.
ESCAPES = ("\x1b[2J\x1b[HTotal 102/102\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x9b2J\x1bPdcs\x1b\\"
           "\rfake\x00\x7f\x85\u202eevil\ud800 <script>x</script>")
CONTROL_BYTES = [chr(c) for c in (*range(0, 9), *range(11, 32), *range(0x7F, 0xA0))] + ["\u202e", "\ud800"]


def escape_batch(student_id: str = "eve\x1b]0;title\x07") -> BatchResult:
    same = dict(score=0.0, max_score=1.0, status="error", message="f() raised ValueError: " + ESCAPES,
                hint="hint " + ESCAPES, detail="detail " + ESCAPES, output=Output(ESCAPES, ESCAPES, 10))
    checks = (CheckResult("test_a", "A " + ESCAPES, **same), CheckResult("test_b", "B.", **{**same, "message": "x"}))
    exercise = exercise_result("scalar_chain", "S", checks, message=ESCAPES)
    return BatchResult(41, "bubblewrap", (student_result(student_id, (exercise,), message=ESCAPES),), "0.1.0", "")


def test_terminal_report_carries_no_control_characters_from_student_text():
    view = report_view(escape_batch().students[0], 41, "bubblewrap")
    for verbose in (False, True):
        text = render_terminal(view, color=False, width=120, verbose=verbose)
        assert [c for c in CONTROL_BYTES if c in text] == []
        assert "Total 102/102" in text and "evil" in text  # the words stay, shown as text
    coloured = render_terminal(view, color=True, width=120)
    # rich's own colours are SGR sequences (ESC [ ... m); nothing else may reach the terminal.
    import re
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).count("\x1b") == 0
    assert "\x9b" not in coloured and "\x07" not in coloured


def test_class_summary_carries_no_control_characters():
    text = render_class_summary([("eve\x1b]52;c;ZXZpbA==\x07\x1b[2J\r\ud800\nmallory 2/2", "1/2", "graded")],
                                width=200)
    assert [c for c in CONTROL_BYTES if c in text] == [] and "eve" in text
    assert len(text.strip().splitlines()) == 2  # the header and one row: a newline forges none


def test_html_and_markdown_reports_escape_and_drop_control_characters():
    view = report_view(escape_batch().students[0], 41, "bubblewrap")
    html, md = render_html(view, TEMPLATES), render_markdown(view, TEMPLATES)
    for text in (html, md):
        assert [c for c in CONTROL_BYTES if c in text] == []
        text.encode("utf-8")  # writable as it is
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<script>" not in outside_code_blocks(md)


def test_gradescope_results_carry_no_control_characters_from_student_text():
    results = gradescope_results(escape_batch().students[0], 41, "bubblewrap", 1.0)
    texts = [results["output"], *(test["output"] for test in results["tests"])]
    assert [c for c in CONTROL_BYTES if any(c in text for text in texts)] == []
    assert any("Total 102/102" in text and "evil" in text for text in texts)  # the words stay, shown as text


def test_results_json_keeps_student_text_but_no_raw_c1_controls():
    text = render_json(escape_batch())
    assert not any(c in text for c in ("\x1b", "\x9b", "\x07", "\x85"))
    assert json.loads(text)["students"][0]["message"] == ESCAPES  # escaped, not lost


def test_results_json_keeps_aliases_and_reads_a_file_written_without_them():
    student = replace(sample_batch().students[0], aliases=("1234", "ada@example.edu"))
    batch = replace(sample_batch(), students=(student,))
    data = json.loads(render_json(batch))
    assert data["students"][0]["aliases"] == ["1234", "ada@example.edu"]
    assert batch_from_dict(data) == batch
    del data["students"][0]["aliases"]  # as a kit before aliases wrote results.json
    assert batch_from_dict(data).students[0].aliases == ()


# Ids one_line showed alike: a newline or tab (a space), a bidi override or a control (dropped), and
# a backslash that spells an escape in full; and ids that look alike on screen: a zero-width
# space, joiner or byte-order mark, a no-break or line-separator space, a tag character; and ids
# that differ only in how Unicode composes them (an accent typed apart, the angstrom sign, Hangul
# letters that join), two folders and two students.
LOOKALIKES = ("evil\nmallory", "evil mallory", "evil\tmallory", "\u202eabc", "abc", "a\x00bc",
              "evil\\x0amallory", "x\x1b]0;owned\x07", "ab\u200bc", "a\u200dbc", "\ufeffabc", "evil\xa0mallory",
              "evil\u2028mallory", "evil\u3000mallory", "abc\U000e0041", "jos\u00e9", "jose\u0301",
              "\u00c5ngstr\u00f6m", "\u212bngstro\u0308m", "\uac00", "\u1100\u1161")


def seen_alike(shown: str) -> str:
    """What a reader sees of ``shown``: characters with no mark of their own (format characters,
    controls, unusual spaces) left out or read as a space, and every character as its composed
    form draws it."""
    return unicodedata.normalize("NFC", "".join(" " if unicodedata.category(ch)[0] == "Z" else ch for ch in shown
                                                if unicodedata.category(ch)[0] != "C"))


def test_gradebook_shows_ids_that_differ_only_by_an_unseen_character_apart():
    students = tuple(sample_batch(sid).students[0] for sid in LOOKALIKES)
    rows = list(csv.reader(io.StringIO(render_gradebook(BatchResult(1, "process", students)))))
    shown = [row[0] for row in rows[1:]]
    assert len(rows) == len(LOOKALIKES) + 1 and len(set(shown)) == len(LOOKALIKES)
    assert [c for c in CONTROL_BYTES if any(c in s for s in shown)] == [] and all("\n" not in s for s in shown)
    assert "evil\\x0amallory" in shown and "evil\\\\x0amallory" in shown and "\\u202eabc" in shown
    assert len({seen_alike(s) for s in shown}) == len(LOOKALIKES), shown


@pytest.mark.parametrize("student_id, cell", [("=1+1", "'=1+1"), ("\t=1+1", "'\\x09=1+1"),
                                              ("\x00=1+1", "'\\x00=1+1"), ("=A1\n", "'=A1\\x0a")])
def test_a_formula_id_shown_with_escapes_still_gets_its_apostrophe(student_id, cell):
    rows = list(csv.reader(io.StringIO(render_gradebook(sample_batch(student_id)))))
    assert rows[1][0] == cell


def test_dashboard_and_reports_show_ids_that_differ_only_by_an_unseen_character_apart():
    students = tuple(sample_batch(sid).students[0] for sid in LOOKALIKES)
    rows = dashboard_view(BatchResult(1, "process", students), lambda sid: "r.html").rows
    titles = [report_view(student, 1, "process").student_id for student in students]
    for shown in ([row.id for row in rows], titles):
        assert len({seen_alike(s) for s in shown}) == len(LOOKALIKES), shown
        assert all("\n" not in s for s in shown)


def test_a_composed_id_is_shown_as_typed():
    assert [shown_id(sid) for sid in ("jos\u00e9", "\uac00", "q\u0301", "Zo\u00eb Chen")] == [
        "jos\u00e9", "\uac00", "q\u0301", "Zo\u00eb Chen"]
    assert shown_id("jose\u0301") == "jose\\u0301" and shown_id("\u212bngstr\u00f6m") == "\\u212bngstr\\xf6m"


def test_class_summary_shows_ids_that_differ_only_by_an_unseen_character_apart():
    text = render_class_summary([(sid, "1/2", "graded") for sid in LOOKALIKES], width=200)
    shown = [line.rsplit("1/2", 1)[0].rstrip() for line in text.splitlines()[1:]]
    assert len(shown) == len({seen_alike(s) for s in shown}) == len(LOOKALIKES), text
    assert [c for c in CONTROL_BYTES if c in text] == []
