"""Class-wide outputs: results.json and gradebook.csv."""

from __future__ import annotations

import csv
import io
import json

from ..model import RESULTS_MARKER, BatchResult, to_dict
from ..names import report_paths
from ..view import points


def render_json(batch: BatchResult) -> str:
    return json.dumps({**RESULTS_MARKER, **to_dict(batch)}, indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    # A cell that starts with = + - @ is a formula to a spreadsheet; a student id must stay text.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _percent(score: float, maximum: float) -> str:
    return points(round(100 * score / maximum, 1)) if maximum else "0"


def render_gradebook(batch: BatchResult) -> str:
    """One row per student: id, one column per exercise, total, max, percent, status, report path."""
    names = list(dict.fromkeys(e.name for s in batch.students for e in s.exercises))
    reports = report_paths(s.id for s in batch.students)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", *names, "total", "max", "percent", "status", "report"])
    for student in batch.students:
        scores = {e.name: points(e.score) for e in student.exercises}
        writer.writerow([_cell(student.id), *(scores.get(n, "0") for n in names),
                         points(student.score), points(student.max_score),
                         _percent(student.score, student.max_score), student.status, _cell(reports[student.id])])
    return buffer.getvalue()
