"""Writing a batch's files: results.json, gradebook.csv and one HTML and Markdown report each.

Only the trusted process writes here, and every file lands atomically (written beside its final
name, then renamed), so a reader never sees half a gradebook. Files and folders are created with
the modes the umask allows, like any other program's output (0644 and 0755 under umask 022).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from .classview import ClassTally
from .model import BatchResult, StudentResult
from .names import REPORTS, name_key, report_stems
from .render.dashboard import render_dashboard, render_summary
from .render.documents import render_html, render_markdown
from .render.tables import GradeRow, grade_row, json_close, json_frame, json_student, render_gradebook_rows
from .files import atomic_file, within_boundary, write_atomic
from .view import report_view

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; grading into one folder twice at once is on the user
    fcntl = None

_REPORT_SUFFIXES = (".html", ".md")


def can_lock() -> bool:
    """Whether :func:`locked` holds a folder for one process alone (not where fcntl is missing)."""
    return fcntl is not None


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold ``out`` for this process alone; a second run into it waits here, then merges with the first."""
    out.mkdir(parents=True, exist_ok=True)
    if fcntl is None:
        yield
        return
    handle = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the handle closes
        yield
    finally:
        os.close(handle)


@dataclass(frozen=True)
class Written:
    """What writing a class leaves in memory: a gradebook row and a report path per student, in order."""

    rows: tuple[GradeRow, ...]
    reports: dict[str, Path]


def write_batch(batch: BatchResult, out: Path, templates_dir: Path,
                previous: BatchResult | None = None) -> dict[str, Path]:
    """Write every output of ``batch`` under ``out`` (see :func:`write_class`); returns the report path per id."""
    written = write_class(replace(batch, students=()), [s.id for s in batch.students], batch.students, out,
                          templates_dir, [s.id for s in previous.students] if previous is not None else ())
    return written.reports


def write_class(run: BatchResult, ids: Sequence[str], students: Iterable[StudentResult], out: Path,
                templates_dir: Path, written_before: Iterable[str] = ()) -> Written:
    """Write every output of the class under ``out``, holding one student's results at a time.

    ``students`` yields the results of ``ids``, in that order; ``run`` is the batch they belong to
    (its own students are not read). Each student's reports are written, and their part of
    results.json streamed to a temporary file, as the student comes; the gradebook and the
    dashboard are made from a row and a tally per student. A report the kit wrote for
    ``written_before`` (the ids stored before this run) under a name this class no longer uses (a
    student renamed by a clash, or dropped by ``--fresh``) is removed; any other file in
    ``reports/`` is someone else's and stays. results.json is renamed into place last, so an
    interrupted run leaves the stored results as they were.
    """
    stems = report_stems(ids)
    rows: list[GradeRow] = []
    tally = ClassTally()
    head, tail = json_frame(run)

    def documents(student: StudentResult) -> tuple[str, str, str]:
        view = report_view(student, run.seed, student.sandbox or run.sandbox or run.isolation,
                           student.graded or run.created, run.version)
        # what results.json will hold must be writable, or the student gets the error row there too
        part = json_student(student, first=not rows)
        return render_html(view, templates_dir), render_markdown(view, templates_dir), part

    with atomic_file(out / "results.json") as results:
        results.write(head)
        for student in students:
            student, (html, markdown, part) = within_boundary(student, documents)
            stem = stems[student.id]
            write_atomic(out / REPORTS / f"{stem}.html", html)
            write_atomic(out / REPORTS / f"{stem}.md", markdown)
            results.write(part)
            rows.append(grade_row(student))
            tally.add(student, f"{REPORTS}/{stem}.html")
        results.write(json_close(bool(rows)) + tail)
        write_atomic(out / "gradebook.csv", render_gradebook_rows(rows))
        view = tally.view(run)
        write_atomic(out / "index.html", render_dashboard(view, templates_dir))
        write_atomic(out / "summary.json", render_summary(view))
    ours = report_stems(written_before)
    remove_stale_reports(out / REPORTS, {f"{stem}{suffix}" for stem in stems.values() for suffix in _REPORT_SUFFIXES},
                         {f"{stem}{suffix}" for stem in ours.values() for suffix in _REPORT_SUFFIXES})
    return Written(tuple(rows), {sid: out / REPORTS / f"{stem}.html" for sid, stem in stems.items()})


def remove_stale_reports(folder: Path, keep: set[str], written_before: set[str]) -> None:
    """Remove the reports of ``written_before`` that ``keep`` does not name again."""
    if not folder.is_dir():
        return
    kept_by_key = {name_key(name): folder / name for name in keep}
    for path in folder.iterdir():
        if path.name not in written_before or path.name in keep or path.is_symlink() or not path.is_file():
            continue
        twin = kept_by_key.get(name_key(path.name))
        # On a case-insensitive or normalising disk a kept report can be listed under an old spelling.
        if twin is not None and twin.exists() and os.path.samefile(path, twin):
            continue
        path.unlink()
