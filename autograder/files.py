"""Writing one file safely, and rendering one student's documents within an error boundary.

Kept apart from :mod:`autograder.output` (a whole batch's files, which needs jinja2 and every
renderer) so that ``check`` can write its JSON and Markdown without loading them first.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator, TextIO, TypeVar

from .errors import GradeError
from .model import StudentResult, exercise_result, student_result
from .sanitize import text

T = TypeVar("T")


def check_writable_file(path: Path) -> None:
    """Refuse before grading, not after, a file the results could not be written to."""
    if path.is_dir():
        raise GradeError(f"{path} is a folder; name a file to write the results to.")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise GradeError(f"{path} cannot be written by you; choose another file.")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one step; an existing file keeps the mode someone gave it."""
    with atomic_file(path) as stream:
        stream.write(text)


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[TextIO]:
    """A text stream that becomes ``path`` in one step when the block ends, and nothing if it fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        kept_mode = path.stat().st_mode & 0o7777
    except OSError:
        kept_mode = None
    # os.open with 0o666 lets the umask decide the mode; mkstemp would always make it 0600.
    while True:
        temporary = temporary_for(path)
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        if kept_mode is not None:  # an instructor who made the gradebook private keeps it private
            os.fchmod(handle, kept_mode)
        # Text is valid by the time it gets here; should any slip through, a file is still written.
        with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace", newline="") as stream:
            yield stream
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")  # what temporary_for names


def temporary_for(path: Path) -> Path:
    """Where a write of ``path`` goes before it is put in place (atomic_file, store.write_durably):
    beside it, hidden, unguessable, and named so that :func:`remove_temporaries` knows it."""
    return path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"


def remove_temporaries(folder: Path) -> None:
    """Remove what writes into ``folder`` that were killed (SIGKILL, a power cut) left behind: their
    temporary files, each a partial copy of results.json or a report, would otherwise pile up run
    after run. Only for a folder whose lock is held: no other writer's temporary is then in it."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if _TEMPORARY.match(entry.name) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def grader_error(student: StudentResult, exc: Exception) -> StudentResult:
    """The error row that stands for a student whose results the grader could not show."""
    message = (f"The grader failed while writing this report ({type(exc).__name__}: {text(str(exc), 200)}); "
               "this is not your fault.")
    exercises = tuple(exercise_result(e.name, e.title, (), "error", message) for e in student.exercises)
    return replace(student_result(student.id, exercises, "error", message), graded=student.graded,
                   sandbox=student.sandbox)


def within_boundary(student: StudentResult, render: Callable[[StudentResult], T]) -> tuple[StudentResult, T]:
    """``render(student)``, or, when that fails, the same for the student's error row.

    One student's data can then cost that student's report, never the class's outputs.
    """
    try:
        return student, render(student)
    except Exception as exc:  # noqa: BLE001  (any failure on one student's data)
        fallback = grader_error(student, exc)
        return fallback, render(fallback)
