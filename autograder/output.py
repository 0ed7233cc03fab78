"""Writing a batch's files: results.json, gradebook.csv and one HTML and Markdown report each.

Only the trusted process writes here, and every file lands atomically (written beside its final
name, then renamed), so a reader never sees half a gradebook. Files and folders are created with
the modes the umask allows, like any other program's output (0644 and 0755 under umask 022).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Iterator

from .model import BatchResult
from .names import REPORTS, name_key, report_stems
from .render.documents import render_html, render_markdown
from .render.tables import render_gradebook, render_json
from .view import report_view

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; grading into one folder twice at once is on the user
    fcntl = None

_REPORT_SUFFIXES = (".html", ".md")


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # os.open with 0o666 lets the umask decide the mode; mkstemp would always make it 0600.
    while True:
        temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


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


def write_batch(batch: BatchResult, out: Path, templates_dir: Path) -> dict[str, Path]:
    """Write every output of ``batch`` under ``out``; returns the report path per student id.

    ``reports/`` ends up holding exactly the reports of ``batch``: a report left from an earlier
    run under another name (a student renamed by a clash, or dropped by ``--fresh``) is removed.
    results.json is written last, so an interrupted run leaves the stored results as they were.
    """
    stems = report_stems(s.id for s in batch.students)
    reports: dict[str, Path] = {}
    for student in batch.students:
        view = report_view(student, batch.seed, batch.sandbox or batch.isolation, student.graded or batch.created, batch.version)
        stem = stems[student.id]
        write_atomic(out / REPORTS / f"{stem}.html", render_html(view, templates_dir))
        write_atomic(out / REPORTS / f"{stem}.md", render_markdown(view, templates_dir))
        reports[student.id] = out / REPORTS / f"{stem}.html"
    write_atomic(out / "gradebook.csv", render_gradebook(batch))
    write_atomic(out / "results.json", render_json(batch))
    remove_stale_reports(out / REPORTS, {f"{stem}{suffix}" for stem in stems.values() for suffix in _REPORT_SUFFIXES})
    return reports


def remove_stale_reports(folder: Path, keep: set[str]) -> None:
    if not folder.is_dir():
        return
    kept_by_key = {name_key(name): folder / name for name in keep}
    for path in folder.iterdir():
        if path.suffix not in _REPORT_SUFFIXES or path.name in keep or path.is_symlink() or not path.is_file():
            continue
        twin = kept_by_key.get(name_key(path.name))
        # On a case-insensitive or normalising disk a kept report can be listed under an old spelling.
        if twin is not None and twin.exists() and os.path.samefile(path, twin):
            continue
        path.unlink()
