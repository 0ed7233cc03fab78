"""A hint points at the idea and the spec sentence, never at the finished code."""

from __future__ import annotations

from pathlib import Path

from conftest import GRADERS
from hint_scan import code_in, grader_hints


def test_no_grader_hint_hands_over_code():
    hints = grader_hints(GRADERS)
    assert len({text for _, _, text in hints}) >= 60, "the scan no longer finds the graders' hints"
    assert [(f, line, text) for f, line, text in hints if code_in(text)] == []


def test_the_scan_finds_code_in_every_place_a_hint_is_written(tmp_path: Path):
    (tmp_path / "test_demo.py").write_text(
        "from autograder.checks import fail, expect_close\n"
        "def helper(student, value, hint):\n    pass\n"
        "def test_a(student):\n"
        "    fail('wrong', 'Use np.mean(x ** 2, axis=-1, keepdims=True).')\n"
        "    expect_close(1.0, 2.0, 'f()', hint='Compute (1 + block_slope) ** depth.')\n"
        "    helper(student, 1, 'End with raise ValueError(f\"unknown kind {kind!r}\").')\n"
        "    hint = 'record it after g = W @ g'\n"
        "    fail('fine', 'Keep the sign: a negative slope flips it at every layer.')\n")
    flagged = sorted(text for _, _, text in grader_hints(tmp_path) if code_in(text))
    assert flagged == ["Compute (1 + block_slope) ** depth.", 'End with raise ValueError(f"unknown kind {kind!r}").',
                       "Use np.mean(x ** 2, axis=-1, keepdims=True).", "record it after g = W @ g"]
