"""What ``check`` gives CI besides the terminal: a summary file appended to, and the pass verdict."""

from __future__ import annotations

from pathlib import Path

from .model import StudentResult


def append_text(path: Path, text: str) -> None:
    """Append, as $GITHUB_STEP_SUMMARY expects: other steps' text stays, a new file is created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8", newline="") as stream:
        stream.write(("\n" if path.stat().st_size else "") + text)


def passes(student: StudentResult, pass_mark: float | None) -> bool:
    """Every graded check passed, or (with a pass mark in percent) the graded score reaches it."""
    graded = [t for e in student.exercises for t in e.tests if t.status != "pending"]
    if pass_mark is None:
        return bool(graded) and all(t.status == "passed" for t in graded)
    maximum = sum(t.max_score for t in graded)
    return maximum > 0 and 100 * sum(t.score for t in graded) / maximum >= pass_mark - 1e-9
