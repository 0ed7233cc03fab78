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
    ambiguous: tuple[str, ...] = ()  # roster students left blank: their ids name more than one submission


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


def _keys(row: dict[str, str]) -> list[tuple[int, str]]:
    """A row's ids, each with its rank: the Canvas ID first, then the SIS user id, the SIS login,
    and the login's part before "@" last (a slug another student's name may also make)."""
    keys = [(rank, _key(row[k])) for rank, k in enumerate(_KEYS) if row.get(k)]
    login = row.get("SIS Login ID", "")
    if "@" in login:
        keys.append((len(_KEYS), _key(login.split("@", 1)[0])))
    return keys


def canvas_gradebook(students: Sequence[GradeRow], roster: Roster, submissions: tuple[Submission, ...],
                     column: str) -> CanvasGradebook:
    """``students`` are the class's gradebook rows; one whose checks were withheld gets a blank cell.

    Ids are partly the students' own choice (a GitHub login, an edited sortable name) and may
    spell a classmate's id of another kind (a login "1234", a Canvas ID 1234), so a row gets a
    score only where nothing else could claim it: an id that names two submissions names neither;
    a row takes the submission its highest-ranked id names; and a row is left blank, and said, where
    its ids name two submissions at that rank, where another row takes the same submission, or
    where a submission its ids name is left without any row (it may be the row's own)."""
    owners: dict[str, set[str]] = {}
    # This run's submissions, and every row's own names: a student kept from an earlier run (an
    # on-time export, with these the late ones) is matched by the aliases stored with their result
    for sid, aliases in [*((s.id, s.aliases) for s in submissions), *((s.id, s.aliases) for s in students)]:
        for key in (sid, *aliases):
            owners.setdefault(_key(key), set()).add(sid)
    named = [_named(row, owners) for row in roster.students]
    chosen = [best[0] if len(best) == 1 else None for best, _every in named]
    taken = [sid for sid in chosen if sid is not None]
    orphans = {sid for _best, every in named for sid in every} - set(taken)
    # A partial score (the host failed some checks) is left blank: imported, it would stand as final.
    scores = {s.id: None if s.withheld else s.score for s in students}
    maximum = max((s.max_score for s in students), default=0.0)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*ID_COLUMNS, column])
    writer.writerow(["    Points Possible", "", "", "", "", points(maximum)])  # as Canvas writes it
    used, ambiguous = set(), []
    for row, (best, every), sid in zip(roster.students, named, chosen):
        if len(best) > 1 or taken.count(sid) > 1 or every & orphans:
            ambiguous.append(row.get("Student", ""))
            cell = ""
        else:
            if sid is not None:
                used.add(sid)
            score = scores.get(sid, 0.0)
            cell = "" if score is None else points(score)
        writer.writerow([_cell(c, row.get(c, "")) for c in ID_COLUMNS] + [cell])
    unmatched = tuple(s.id for s in students if s.id not in used and s.id not in orphans and s.id not in taken)
    blank = tuple(s.id for s in students if s.withheld and s.id in used)
    return CanvasGradebook(buffer.getvalue(), len(used), unmatched, blank, tuple(ambiguous))


def _named(row: dict[str, str], owners: dict[str, set[str]]) -> tuple[list[str], set[str]]:
    """The submissions the row's highest-ranked id names, and every submission any of its ids
    names: by ids that name one submission alone (one naming two is no evidence for either)."""
    ranked = sorted((rank, next(iter(owners[key]))) for rank, key in _keys(row)
                    if key in owners and len(owners[key]) == 1)
    best = sorted({sid for rank, sid in ranked if rank == ranked[0][0]}) if ranked else []
    return best, {sid for _rank, sid in ranked}


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
                     f"{len(roster.students)} roster students have a submission; the others get 0"
                     f"{', apart from those left blank below' if gradebook.ambiguous else ''}.\n")
    for sid in gradebook.unmatched:
        sys.stderr.write(f"warning: {sid!r} has a submission but no row in {roster_path}; not in canvas.csv.\n")
    for name in gradebook.ambiguous:
        sys.stderr.write(f"warning: {name!r} in {roster_path} is left blank in canvas.csv: the ids of that row and "
                         f"of the submissions name more than one student; enter that score by hand.\n")
    if gradebook.blank:
        count = len(gradebook.blank)
        sys.stderr.write(f"warning: {count} student{'s' * (count != 1)} ({', '.join(map(repr, gradebook.blank[:5]))}"
                         f"{', ...' if count > 5 else ''}) could not be fully graded (the host failed some checks, or could not read their files), so "
                         f"{'their cells are' if count != 1 else 'the cell is'} left blank in canvas.csv; grade "
                         f"again into {out} before you import it.\n")
