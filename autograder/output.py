"""Writing a batch's files: results.json, gradebook.csv and one HTML and Markdown report each.

Only the trusted process writes here, and every file lands atomically (written beside its final
name, then renamed), so a reader never sees half a gradebook.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable, TypeVar

from .model import BatchResult, StudentResult, exercise_result, student_result, to_dict
from .render.documents import render_html, render_markdown
from .render.tables import render_gradebook, render_json
from .sanitize import text
from .view import report_view

T = TypeVar("T")

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def report_stem(student_id: str) -> str:
    """A file name for a student's report; ids with odd characters get a hash to stay unique."""
    safe = _UNSAFE.sub("_", student_id).lstrip(".") or "student"
    if safe != student_id:
        try:
            raw = student_id.encode("utf-8", "surrogateescape")  # a file name's undecodable bytes
        except UnicodeEncodeError:
            raw = student_id.encode("utf-8", "surrogatepass")
        safe = f"{safe[:60]}-{hashlib.sha256(raw).hexdigest()[:8]}"
    return safe


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # Text is valid by the time it gets here; should any slip through, a file is still written.
        with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def grader_error(student: StudentResult, exc: Exception) -> StudentResult:
    """The error row that stands for a student whose results the grader could not show."""
    message = (f"The grader failed while writing this report ({type(exc).__name__}: {text(str(exc), 200)}); "
               "this is not your fault.")
    exercises = tuple(exercise_result(e.name, e.title, (), "error", message) for e in student.exercises)
    return student_result(student.id, exercises, "error", message)


def within_boundary(student: StudentResult, render: Callable[[StudentResult], T]) -> tuple[StudentResult, T]:
    """``render(student)``, or, when that fails, the same for the student's error row.

    One student's data can then cost that student's report, never the class's outputs.
    """
    try:
        return student, render(student)
    except Exception as exc:  # noqa: BLE001  (any failure on one student's data)
        fallback = grader_error(student, exc)
        return fallback, render(fallback)


def write_batch(batch: BatchResult, out: Path, templates_dir: Path) -> dict[str, Path]:
    """Write every output of ``batch`` under ``out``; returns the report path per student id."""
    reports: dict[str, Path] = {}
    students = []

    def documents(student: StudentResult) -> tuple[str, str]:
        view = report_view(student, batch.seed, batch.isolation, batch.created, batch.version)
        json.dumps(to_dict(student), ensure_ascii=False)  # what results.json will hold must be writable
        return render_html(view, templates_dir), render_markdown(view, templates_dir)

    for student in batch.students:
        student, (html, markdown) = within_boundary(student, documents)
        stem = report_stem(student.id)
        write_atomic(out / "reports" / f"{stem}.html", html)
        write_atomic(out / "reports" / f"{stem}.md", markdown)
        reports[student.id] = out / "reports" / f"{stem}.html"
        students.append(student)
    batch = replace(batch, students=tuple(students))
    write_atomic(out / "gradebook.csv", render_gradebook(batch))
    write_atomic(out / "results.json", render_json(batch))
    return reports
