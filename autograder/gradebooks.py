"""A gradebook Canvas imports: the roster's own rows and id columns, one score column.

The roster is Canvas's gradebook export (Grades > Export): ``Student, ID, SIS User ID,
SIS Login ID, Section`` and one column per assignment, sometimes with a "Points Possible" row
under the header. The output keeps those identifying columns as they are, because Canvas's
import matches students by them, adds one assignment column and a "Points Possible" row, and
gives every roster student without a submission 0.
"""

from __future__ import annotations

import csv
import io
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .errors import GradeError
from .intake import Submission
from .files import write_atomic
from .render.inert import spreadsheet_text
from .render.tables import GradeRow
from .view import points

ID_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
_KEYS = ("ID", "SIS User ID", "SIS Login ID")


@dataclass(frozen=True)
class Roster:
    students: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class CanvasGradebook:
    text: str
    matched: int
    unmatched: tuple[str, ...]  # graded students with no roster row
    blank: tuple[str, ...] = ()  # roster students whose checks were withheld: no score to import yet


def read_roster(path: Path) -> Roster:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise GradeError(f"the roster {path} cannot be read ({type(error).__name__}).") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    if "Student" not in header or not any(k in header for k in _KEYS):
        raise GradeError(f"the roster {path} is not a Canvas gradebook export: it needs a Student column and "
                         f"one of {', '.join(_KEYS)}.")
    rows = []
    for row in reader:
        row = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
        if row.get("Student", "") in ("Points Possible", "") or not any(row.get(k) for k in _KEYS):
            continue  # Canvas's "Points Possible" and posting-policy rows are not students
        rows.append(row)
    return Roster(tuple(rows))


def _key(text: str) -> str:
    """How a roster's name and a submission's id are compared: Unicode's canonical caseless match, as
    a name from a macOS zip (NFD, its accents apart) and the same name typed into the LMS (NFC) are one."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).casefold())


def _keys(row: dict[str, str]) -> set[str]:
    keys = {_key(row[k]) for k in _KEYS if row.get(k)}
    login = row.get("SIS Login ID", "")
    if "@" in login:
        keys.add(_key(login.split("@", 1)[0]))
    return keys


def canvas_gradebook(students: Sequence[GradeRow], roster: Roster, submissions: tuple[Submission, ...],
                     column: str) -> CanvasGradebook:
    """``students`` are the class's gradebook rows; one whose checks were withheld gets a blank cell."""
    by_key: dict[str, str] = {}
    # This run's submissions, and every row's own names: a student kept from an earlier run (an
    # on-time export, with these the late ones) is matched by the aliases stored with their result
    for sid, aliases in [*((s.id, s.aliases) for s in submissions), *((s.id, s.aliases) for s in students)]:
        for key in (sid, *aliases):
            by_key.setdefault(_key(key), sid)
    # A partial score (the host failed some checks) is left blank: imported, it would stand as final.
    scores = {s.id: None if s.withheld else s.score for s in students}
    maximum = max((s.max_score for s in students), default=0.0)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*ID_COLUMNS, column])
    writer.writerow(["    Points Possible", "", "", "", "", points(maximum)])  # as Canvas writes it
    used = set()
    for row in roster.students:
        sid = next((by_key[k] for k in sorted(_keys(row)) if k in by_key), None)
        if sid is not None:
            used.add(sid)
        score = scores.get(sid, 0.0)
        writer.writerow([_cell(c, row.get(c, "")) for c in ID_COLUMNS] + ["" if score is None else points(score)])
    unmatched = tuple(s.id for s in students if s.id not in used)
    blank = tuple(s.id for s in students if s.withheld and s.id in used)
    return CanvasGradebook(buffer.getvalue(), len(used), unmatched, blank)


# An id Canvas matches on, such as an SIS id "-0042" or "+1x", must come back as Canvas wrote it:
# made of letters, digits and . _ @ - + alone, a spreadsheet reads it at worst as a number or a
# formula error (no function call, reference or command fits in it), so it keeps no apostrophe.
_PLAIN_ID = re.compile(r"[\w.@+-]*")


def _cell(column: str, value: str) -> str:
    if column in _KEYS and _PLAIN_ID.fullmatch(value):
        return value
    return spreadsheet_text(value)


def write_canvas(out: Path, students: Sequence[GradeRow], roster: Roster, submissions: tuple[Submission, ...], column: str,
                 roster_path: Path) -> None:
    """Write ``out/canvas.csv`` and say what matched; a graded student missing from the roster is named."""
    gradebook = canvas_gradebook(students, roster, submissions, column)
    write_atomic(out / "canvas.csv", gradebook.text)
    sys.stdout.write(f"Wrote {out / 'canvas.csv'} for Canvas's gradebook import: {gradebook.matched} of "
                     f"{len(roster.students)} roster students have a submission; the others get 0.\n")
    for sid in gradebook.unmatched:
        sys.stderr.write(f"warning: {sid!r} has a submission but no row in {roster_path}; not in canvas.csv.\n")
    if gradebook.blank:
        count = len(gradebook.blank)
        sys.stderr.write(f"warning: {count} student{'s' * (count != 1)} ({', '.join(map(repr, gradebook.blank[:5]))}"
                         f"{', ...' if count > 5 else ''}) could not be fully graded (the host failed some checks, or could not read their files), so "
                         f"{'their cells are' if count != 1 else 'the cell is'} left blank in canvas.csv; grade "
                         f"again into {out} before you import it.\n")
