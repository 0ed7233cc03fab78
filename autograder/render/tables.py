"""Class-wide outputs: results.json and gradebook.csv."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, replace
from typing import Iterable

from ..model import RESULTS_MARKER, BatchResult, StudentResult, host_failed, to_dict
from ..names import report_paths
from ..view import points
from .inert import one_line, shown_id, spreadsheet_text


INCOMPLETE_STATUS = "incomplete"  # the gradebook's status for a student with withheld checks: not a final score

# JSON escapes C0 controls itself; DEL and the C1 controls (U+009B is a CSI) it leaves raw.
_RAW_CONTROLS = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}


def render_json(batch: BatchResult) -> str:
    # They can only occur inside strings, where the escape reads back as the same character.
    return json.dumps({**RESULTS_MARKER, **to_dict(batch)}, indent=2, ensure_ascii=False).translate(_RAW_CONTROLS) + "\n"


def json_frame(batch: BatchResult) -> tuple[str, str]:
    """results.json's text before its first student and after its last, for writing students one at a time.

    With :func:`json_student` between them, the text is :func:`render_json`'s for the same students.
    """
    text = render_json(replace(batch, students=()))
    # A string's newlines are escaped, so this line can only be the top level's "students" key.
    head, tail = text.split('\n  "students": []', 1)
    return head + '\n  "students": [', tail


def json_student(student: StudentResult, first: bool) -> str:
    """One student's part of results.json, as it sits in the list (two levels in)."""
    text = json.dumps(to_dict(student), indent=2, ensure_ascii=False).translate(_RAW_CONTROLS)
    return ("\n    " if first else ",\n    ") + text.replace("\n", "\n    ")


def json_close(any_students: bool) -> str:
    return "\n  ]" if any_students else "]"


@dataclass(frozen=True)
class GradeRow:
    """What the gradebook (and a roster export) needs of one student: a few numbers, never the checks."""

    id: str
    score: float
    max_score: float
    status: str
    scores: tuple[tuple[str, float], ...]  # per exercise, in the student's order
    withheld: bool = False  # the host failed some checks: the score is partial, and the next run grades them
    aliases: tuple[str, ...] = ()  # the student's other names, which a roster may know them by

    @property
    def shown_status(self) -> str:
        """The status outputs show: a partial score must not read as a final one."""
        return INCOMPLETE_STATUS if self.withheld else self.status


def grade_row(student: StudentResult) -> GradeRow:
    return GradeRow(student.id, student.score, student.max_score, student.status,
                    tuple((e.name, e.score) for e in student.exercises),
                    any(host_failed(e) for e in student.exercises), student.aliases)


def _percent(score: float, maximum: float) -> str:
    return points(round(100 * score / maximum, 1)) if maximum else "0"


def _id_cell(student_id: str) -> str:
    """The id as the gradebook shows it (:func:`shown_id`: one line, told apart from every other id),
    kept as text by spreadsheets wherever the id, or what a terminal would make of it, is a formula."""
    shown = shown_id(student_id)
    formula = any(spreadsheet_text(text) != text for text in (student_id, one_line(student_id), shown))
    return ("'" if formula else "") + shown


def render_gradebook(batch: BatchResult) -> str:
    """One row per student: id, one column per exercise, total, max, percent, status, report path."""
    return render_gradebook_rows([grade_row(s) for s in batch.students])


def render_gradebook_rows(rows: Iterable[GradeRow]) -> str:
    """:func:`render_gradebook` from the students' rows."""
    rows = list(rows)
    names = list(dict.fromkeys(name for r in rows for name, _score in r.scores))
    reports = report_paths(r.id for r in rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", *names, "total", "max", "percent", "status", "report"])
    for student in rows:
        scores = {name: points(score) for name, score in student.scores}
        writer.writerow([_id_cell(student.id), *(scores.get(n, "0") for n in names),
                         points(student.score), points(student.max_score),
                         _percent(student.score, student.max_score), student.shown_status, spreadsheet_text(reports[student.id])])
    return buffer.getvalue()
