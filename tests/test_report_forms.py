"""Terminal, Markdown and HTML reports: the same decisions in every form, and student text inert in each."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from autograder.model import CheckResult, Output, exercise_result, student_result
from autograder.render.documents import render_html, render_markdown
from autograder.render.terminal import render_terminal
from autograder.view import LEGEND, report_view
from conftest import ROOT
from test_render import outside_code_blocks

TEMPLATES = ROOT / "templates"
ANSI = "\x1b[31mred\x1b[0m \x1b]0;owned\x07 \u202eevil"
MD_TRAPS = ("[click](http://evil.example) ![pixel](http://evil.example/p.png) <http://evil.example> "
            "[ref]: http://x www.evil.example")
SCRIPT = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HUGE = "x" * (10 * 1024 * 1024)


def hostile_student(student_id: str = "eve"):
    checks = (
        CheckResult("test_ok", "Returns a float.", 1.0, 1.0, "passed", output=Output("noise while passing")),
        CheckResult("test_script", "Keeps the sign.", 0.0, 1.0, "failed", message=f"f() returned {SCRIPT}",
                    hint="Do not take abs().", output=Output(f"{SCRIPT}\n{MD_TRAPS}\n{ANSI}\n")),
        CheckResult("test_huge", "Handles depth 0.", 0.0, 1.0, "error", message=f"f() raised ValueError: {HUGE}",
                    detail=f'File "scalar_chain.py", line 3\n{ANSI}\n{HUGE}', output=Output(HUGE, HUGE[-10:], 123)),
        CheckResult("test_links", "Names the layer.", 0.0, 2.0, "timeout", message=f"f(3) hung {MD_TRAPS}",
                    hint=f"hint {ANSI}"),
    )
    passing = exercise_result("residual", "Residual", (CheckResult("test_a", "A.", 1.0, 1.0, "passed"),))
    return student_result(student_id, (exercise_result("scalar_chain", "Chain", checks), passing))


def forms(student, width: int = 80) -> dict[str, str]:
    view = report_view(student, 7, "process")
    return {"txt": render_terminal(view, width=width), "md": render_markdown(view, TEMPLATES),
            "html": render_html(view, TEMPLATES)}


def visible(fmt: str, text: str) -> str:
    """What a reader sees, roughly: tags stripped and entities read in HTML, escapes read in Markdown."""
    if fmt == "html":
        return html_lib.unescape(re.sub(r"<[^>]+>", " ", text))
    if fmt == "md":
        return re.sub(r"\\(.)", r"\1", text).replace("&amp;", "&")
    return text


def test_every_form_shows_the_same_messages_hints_and_folds():
    student = hostile_student()
    view = report_view(student, 7, "process")
    texts = {fmt: " ".join(visible(fmt, t).split()) for fmt, t in forms(student, width=10_000).items()}
    shown = [view.exercises[1].folded_text]
    for check in view.exercises[0].checks:
        shown += [check.description] + [part.split("\n")[0][:60] for part in (check.message, check.hint) if part]
    for fmt, text in texts.items():
        for phrase in shown:
            assert " ".join(phrase.split()) in text, (fmt, phrase)
        assert "noise while passing" not in text  # a passing check's output is shown in no form


def test_no_form_carries_a_script_a_link_an_image_or_a_control_character():
    for fmt, text in forms(hostile_student("<b>eve</b>\x1b[2J")).items():
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, fmt
        if fmt == "html":
            body = text.split("</style>", 1)[1]
            assert "<script" not in body and "<img" not in body and "<b>eve" not in body
            assert "&lt;script&gt;" in body and "href=" not in body
        if fmt == "md":
            prose = outside_code_blocks(text)
            for trap in (r"<script", r"<http", r"\]\(", r"!\[", r"://", r"www\."):
                assert not re.search(r"(?<!\\)" + trap, prose), trap
            assert "\\[click\\]" in prose


def test_a_ten_megabyte_line_is_cut_in_every_form():
    for fmt, text in forms(hostile_student()).items():
        assert len(text) < 200_000, (fmt, len(text))
        assert "more characters)" in text, fmt


def test_the_terminal_report_fits_80_columns_and_explains_its_symbols():
    from rich.cells import cell_len
    text = render_terminal(report_view(hostile_student(), 7, "process"), width=80)
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    legend = text.splitlines()[1]
    for icon, label in LEGEND:
        assert f"{icon} {label}" in legend


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_legend_is_in_every_form(fmt):
    text = visible(fmt, forms(hostile_student())[fmt])
    assert all(label in text for _icon, label in LEGEND)


def test_a_graders_long_sentence_is_never_cut():
    sentence = "layer_norm(x) returned " + ", ".join(f"{i}.123456789" for i in range(60)) + "; expected more."
    check = CheckResult("test_long", "Long.", 0.0, 1.0, "failed", message=sentence)
    view = report_view(student_result("a", (exercise_result("normalization", "N", (check,)),)), 1, "process")
    assert 800 < len(sentence) and view.exercises[0].checks[0].message == sentence
