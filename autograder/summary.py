"""What ``check`` gives CI besides the terminal: a summary file appended to, and the pass verdict."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .model import StudentResult


def append_text(path: Path, text: str) -> None:
    """Append, as $GITHUB_STEP_SUMMARY expects: other steps' text stays, a new file is created.

    A write that fails part-way (a full disk) takes back what it added, and a file it created is
    removed: the file is left as it was, never with half a report or empty.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = os.path.lexists(path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        size = os.fstat(fd).st_size
        data = memoryview((b"\n" if size else b"") + text.encode("utf-8", "backslashreplace"))
        try:
            while data:
                data = data[os.write(fd, data):]
        except OSError:
            with contextlib.suppress(OSError):  # not a regular file (/dev/full): nothing to take back
                os.ftruncate(fd, size)
            if not existed:
                with contextlib.suppress(OSError):
                    os.unlink(path)
            raise
    finally:
        os.close(fd)


def passes(student: StudentResult, pass_mark: float | None) -> bool:
    """Every graded check passed, or (with a pass mark in percent) the graded score reaches it."""
    graded = [t for e in student.exercises for t in e.tests if t.status != "pending"]
    if pass_mark is None:
        return bool(graded) and all(t.status == "passed" for t in graded)
    maximum = sum(t.max_score for t in graded)
    return maximum > 0 and 100 * sum(t.score for t in graded) / maximum >= pass_mark - 1e-9
