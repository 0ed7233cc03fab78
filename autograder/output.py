"""Writing a batch's files: results.json, gradebook.csv and one HTML and Markdown report each.

Only the trusted process writes here, and every file lands atomically (written beside its final
name, then renamed), so a reader never sees half a gradebook.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from .model import BatchResult
from .render.dashboard import dashboard_files
from .render.documents import render_html, render_markdown
from .render.tables import render_gradebook, render_json
from .view import report_view

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def report_stem(student_id: str) -> str:
    """A file name for a student's report; ids with odd characters get a hash to stay unique."""
    safe = _UNSAFE.sub("_", student_id).lstrip(".") or "student"
    if safe != student_id:
        safe = f"{safe[:60]}-{hashlib.sha256(student_id.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}"
    return safe


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_batch(batch: BatchResult, out: Path, templates_dir: Path) -> dict[str, Path]:
    """Write every output of ``batch`` under ``out``; returns the report path per student id."""
    reports: dict[str, Path] = {}
    for student in batch.students:
        view = report_view(student, batch.seed, batch.sandbox or batch.isolation, batch.created, batch.version)
        stem = report_stem(student.id)
        write_atomic(out / "reports" / f"{stem}.html", render_html(view, templates_dir))
        write_atomic(out / "reports" / f"{stem}.md", render_markdown(view, templates_dir))
        reports[student.id] = out / "reports" / f"{stem}.html"
    write_atomic(out / "gradebook.csv", render_gradebook(batch))
    write_atomic(out / "results.json", render_json(batch))
    for name, text in dashboard_files(batch, templates_dir, lambda sid: reports[sid].relative_to(out).as_posix()).items():
        write_atomic(out / name, text)
    return reports
