"""An output folder's stored results: recognise the kit's own folder, read it, merge a new run in.

A folder is the kit's when its results.json carries the kit's marker (or, from kits that wrote no
marker, has exactly the fields of a batch). Anything else that is not empty is someone else's and
is refused; a results.json that cannot be read is refused too, never overwritten.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import GradeError
from .store import is_store
from .jsonstream import ValueReader
from .model import (RESULTS_MARKER, BatchResult, ResultsFormatError, StudentResult, batch_from_dict,
                    student_from_dict)

_BATCH_FIELDS = {"seed", "isolation", "students", "version", "created"}
_ONE_STUDENT = 1 << 16  # bytes read at first for one student read alone; a longer one is read in doubling steps


@dataclass(frozen=True)
class Entry:
    """One stored student, as much as a run needs before reading the whole of it."""

    id: str
    graded: str
    exercises: tuple[str, ...]
    offset: int  # of the student's object in results.json, in bytes
    aliases: tuple[str, ...] = ()  # the student's other names (a Classroom repository's, an LMS user id)


@dataclass(frozen=True)
class StoredIndex:
    """An output folder's results.json, read once through: the run's terms and an entry per student."""

    path: Path
    header: BatchResult  # without its students
    entries: tuple[Entry, ...]
    exercise_lists: frozenset[tuple[str, ...]]
    offsets: dict[str, int] = field(default_factory=dict, compare=False)

    def read(self, student_id: str) -> StudentResult:
        """One stored student, read alone (the folder is locked, so results.json is still the file indexed)."""
        try:
            with open(self.path, "rb") as stream:
                return student_from_dict(ValueReader(stream, self.offsets[student_id], _ONE_STUDENT).value(), "student")
        except (ValueError, RecursionError) as error:
            raise GradeError(f"{self.path} changed while it was being read ({_reason(error)}); grade again.") from None


def index_stored(out: Path) -> StoredIndex | None:
    """The results stored in ``out``, indexed; None for a new or empty folder. Raises GradeError for any other."""
    if not out.exists():
        return None
    if not out.is_dir():
        raise GradeError(f"{out} exists and is not a folder.")
    results = out / "results.json"
    for name in ("reports", "results.json", "gradebook.csv"):
        expected_dir = name == "reports"
        if (out / name).exists() and (out / name).is_dir() != expected_dir:
            raise GradeError(f"{out / name} is {'not ' if expected_dir else ''}a folder, so {out} cannot take "
                             f"the grading results; choose another output folder.")
    if not results.exists() and not results.is_symlink():
        if any(out.iterdir()) and not is_store(out):  # a store alone: a run that stopped before its end
            raise GradeError(f"{out} is not empty and holds no results.json from an earlier grade run; "
                             f"choose a new or empty folder so nothing in it is overwritten.")
        return None
    return _scan(results)


def read_stored(out: Path) -> BatchResult | None:
    """The results stored in ``out``, every student read; None for a new or empty folder."""
    index = index_stored(out)
    if index is None:
        return None
    return replace(index.header, students=tuple(index.read(e.id) for e in index.entries))


def _scan(results: Path) -> StoredIndex:
    try:
        with open(results, "rb") as stream:
            header, entries, problem = _scan_document(ValueReader(stream))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise GradeError(f"{results} cannot be read ({_reason(error)}); restore or remove it, or choose "
                         f"another output folder.") from None
    if not isinstance(header, dict):
        raise GradeError(f"{results} was not written by the gradient kit; choose another output folder.")
    legacy = "kit" not in header and set(header) == _BATCH_FIELDS
    if not legacy and header.get("kit") != RESULTS_MARKER["kit"]:
        raise GradeError(f"{results} was not written by the gradient kit; choose another output folder.")
    if not legacy and header.get("format") != RESULTS_MARKER["format"]:
        raise GradeError(f"{results} has format {repr(header.get('format'))[:20]}, which this kit (format "
                         f"{RESULTS_MARKER['format']}) cannot read; use the kit that wrote it or another folder.")
    try:
        batch = batch_from_dict({k: v for k, v in header.items() if k != "students" or not isinstance(v, list)})
        if problem is not None:
            raise problem
        ids = [e.id for e in entries]
        if len(set(ids)) != len(ids):
            raise ResultsFormatError("a student id appears twice")
    except ResultsFormatError as error:
        raise GradeError(f"{results} is damaged ({error}); restore or remove it, or choose another "
                         f"output folder.") from None
    return StoredIndex(results, batch, tuple(entries), frozenset(e.exercises for e in entries),
                       {e.id: e.offset for e in entries})


def _scan_document(reader: ValueReader) -> tuple[object, list[Entry], ResultsFormatError | None]:
    """The document's fields but its students, an entry per student, and the first student that is damaged."""
    if reader.peek() != "{":
        document = reader.value()
        reader.end()
        return document, [], None
    reader.expect("{", "'{'")
    header: dict[str, object] = {}
    entries: list[Entry] = []
    problem = None
    if not reader.take("}"):
        while True:
            key = reader.value()
            if not isinstance(key, str):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", "", 0)
            reader.expect(":", "':' delimiter")
            if key == "students" and reader.peek() == "[":
                header[key], entries, problem = [], [], None  # a repeated key: the last one counts, as in json.loads
                reader.expect("[", "'['")
                if not reader.take("]"):
                    while True:
                        offset = reader.offset()
                        entry = _entry(reader.value(), len(entries), offset)
                        if isinstance(entry, Entry):
                            entries.append(entry)
                        elif problem is None:
                            problem = entry
                        if reader.expect(",]", "',' delimiter") == "]":
                            break
            else:
                header[key] = reader.value()
            if reader.expect(",}", "',' delimiter") == "}":
                break
    reader.end()
    return header, entries, problem


def _entry(data: object, n: int, offset: int) -> Entry | ResultsFormatError:
    try:
        student = student_from_dict(data, f"students[{n}]")
    except ResultsFormatError as error:
        return error
    return Entry(student.id, student.graded, tuple(e.name for e in student.exercises), offset, student.aliases)


def check_writable(out: Path) -> None:
    """Refuse before grading, not after, a folder whose results could not be written."""
    existing = out
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    for folder in (existing, out / "reports"):
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise GradeError(f"{folder} is not writable for you, so the results could not be saved; choose "
                             f"another output folder or change its permissions.")


def _reason(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON at line {error.lineno}, column {error.colno}"
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    return "not valid JSON"


@dataclass(frozen=True)
class RunIdentity:
    """What must be the same for every student of one output folder to be graded alike."""

    isolation: str
    version: str
    exercises: tuple[str, ...]
    call_timeout: float
    memory_mb: int


def check_mergeable(stored: BatchResult, out: Path, seed: int, run: RunIdentity,
                    graded_on: frozenset[tuple[str, ...]] | None = None) -> None:
    """Refuse to mix, in one folder, students graded on different terms; --fresh is the way out."""
    way_out = "or pass --fresh to regrade from scratch and drop the stored results"
    if stored.seed != seed:
        raise GradeError(f"{out} holds results graded with seed {stored.seed}, not {seed}; leave out --seed "
                         f"to keep {stored.seed}, {way_out}.")
    if stored.version != run.version:
        raise GradeError(f"{out} was graded by gradient kit {stored.version}, not {run.version}, whose "
                         f"graders may differ; grade into another folder, {way_out}.")
    if stored.isolation != run.isolation:
        raise GradeError(f"{out} was graded with isolation {stored.isolation}, not {run.isolation}; pass "
                         f"--isolation {stored.isolation} to match, {way_out}.")
    limits = (stored.call_timeout, stored.memory_mb)
    if limits != (0, 0) and limits != (run.call_timeout, run.memory_mb):
        raise GradeError(f"{out} was graded with --timeout {stored.call_timeout:g} --memory-mb {stored.memory_mb}, "
                         f"not --timeout {run.call_timeout:g} --memory-mb {run.memory_mb}; pass those to match, "
                         f"{way_out}.")
    if graded_on is None:  # ``stored`` holds its students
        graded_on = frozenset(tuple(e.name for e in s.exercises) for s in stored.students)
    if graded_on - {run.exercises}:
        raise GradeError(f"{out} was graded on other exercises than graders/course.toml lists now; grade into "
                         f"another folder, {way_out}.")


def merge(stored: BatchResult | None, graded: list[StudentResult], template: BatchResult) -> BatchResult:
    """``template``'s run with ``graded`` replacing or joining the stored students, sorted by id.

    The whole-batch form of what :func:`autograder.classout.write_run` does one student at a time.
    """
    # Results from a kit that stamped no time per student were all graded when their batch was.
    students = {s.id: replace(s, graded=s.graded or stored.created) for s in (stored.students if stored else ())}
    students.update((s.id, s) for s in graded)
    return replace(template, students=tuple(students[i] for i in sorted(students)))
