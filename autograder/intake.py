"""Submissions as they arrive, mapped to students: one folder each, or an LMS's export.

Layouts read (a folder, or a zip of one):

- ``folders``: one folder per student, named by the student's id (the kit's own layout);
- ``canvas``, ``gradescope``, ``classroom``: an LMS's export, read by :mod:`autograder.lms` and
  :mod:`autograder.gradescope_export`;
- ``moodle``: Moodle's "Download all submissions", in folders or flat, read by :mod:`autograder.moodle`.

Dot files, ``__MACOSX`` and editor backups are ignored everywhere. A single folder wrapping
everything is descended into, and so is a student's single folder; both are said. A file that
looks like an exercise under another name (``Scalar_Chain.py``, ``init_std.py.txt``) is a near
miss: the student's report names it instead of calling the exercise "not submitted".
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from .archive import UnsafeArchive, extract_zip
from .errors import GradeError
from .model import StudentResult
from .render.inert import shown_name

LAYOUTS = ("folders", "canvas", "gradescope", "classroom", "moodle")
_JUNK = {"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"}
_BACKUP = re.compile(r"(~|\.swp|\.swo|\.bak|\.orig|\.tmp)$|^#.*#$")
_MAX_DEPTH = 3


@dataclass(frozen=True)
class Submission:
    id: str
    folder: Path
    notices: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # other names the student goes by (LMS user id, email, SIS id)
    near_misses: tuple[tuple[str, str], ...] = ()  # (exercise, the file that looks like it)


@dataclass(frozen=True)
class Intake:
    layout: str
    submissions: tuple[Submission, ...]
    notes: tuple[str, ...] = ()  # for the instructor: what was unpacked, descended into, ignored
    root: Path | None = None  # where the students were read from: no link below it is followed (submission.look)


def is_junk(name: str) -> bool:
    return name.startswith(".") or name in _JUNK or bool(_BACKUP.search(name))


def visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not is_junk(p.name))


def _visible_inside(folder: Path) -> list[Path]:
    """A student's folder's entries; none where it cannot be listed (grading says why, for that student alone)."""
    try:
        return visible(folder)
    except OSError:
        return []


def is_plain_dir(path: Path) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)  # False, never an error, where a mode denies the look


def _descend(root: Path, notes: list[str], label: str) -> Path:
    """Go down through folders that wrap everything else (and hold no code of their own)."""
    for _ in range(_MAX_DEPTH):
        entries = visible(root)
        inside = _visible_inside(entries[0]) if len(entries) == 1 and is_plain_dir(entries[0]) else []
        if not inside or any(p.suffix == ".py" for p in inside):
            break
        root = entries[0]
        notes.append(f"{label} holds a single folder, {root.name}/; read the submissions inside it.")
    return root


def _stem_guess(name: str) -> str:
    """What exercise a file name seems to mean: 'Init_Std.py.txt' -> 'init_std'."""
    lowered = name.lower()
    stem = lowered.split(".py", 1)[0] if ".py" in lowered else lowered.rsplit(".", 1)[0]
    stem = re.sub(r"[\s\-]*\(?\d+\)?$", "", stem) if not stem.isdigit() else stem
    return re.sub(r"[\s\-]+", "_", stem.strip())


def match_near_misses(candidates: list[str], present: set[str], exercises: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(exercise, file name) for each missing exercise that one of the ``candidates`` seems to mean."""
    missing = [e for e in exercises if f"{e}.py" not in present]
    found: dict[str, str] = {}
    for name in sorted(candidates):
        if name in {f"{e}.py" for e in exercises} or is_junk(name):
            continue
        guess = _stem_guess(name)
        match = guess if guess in missing else next(iter(difflib.get_close_matches(guess, missing, 1, 0.85)), None)
        if match and match not in found:
            found[match] = name
    return tuple(sorted(found.items()))


def find_near_misses(folder: Path, exercises: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    if not is_plain_dir(folder):
        return ()
    entries = _visible_inside(folder)
    present = {p.name for p in entries if os.path.lexists(p)}
    return match_near_misses([p.name for p in entries if os.path.isfile(p)], present, exercises)


def _locate(folder: Path, exercises: tuple[str, ...]) -> tuple[Path, tuple[str, ...]]:
    """The folder in a student's submission that holds the exercise files, and what was done to find it."""
    notices = []
    for _ in range(_MAX_DEPTH):
        if not is_plain_dir(folder) or any(os.path.lexists(folder / f"{e}.py") for e in exercises):
            break
        nested = folder / "exercises"  # a repository made from the student release
        entries = [p for p in _visible_inside(folder) if is_plain_dir(p)]
        if is_plain_dir(nested):
            folder = nested
        elif len(entries) == 1 and len(_visible_inside(folder)) == 1:
            folder = entries[0]
            notices.append(f"Your files were inside the folder {folder.name}/; they were graded from there.")
        else:
            break
    return folder, tuple(notices)


def read_student(sid: str, folder: Path, exercises: tuple[str, ...], notices: tuple[str, ...] = (),
                 aliases: tuple[str, ...] = ()) -> Submission:
    located, found = _locate(folder, exercises)
    return Submission(sid, located, (*notices, *found), aliases, find_near_misses(located, exercises))


def _read_folders(root: Path, exercises: tuple[str, ...]) -> list[Submission]:
    # os.path's tests, not Path's: they say False where a student's mode denies the look (Path's raise)
    return [read_student(p.name, p, exercises) if not os.path.islink(p) else Submission(p.name, p)
            for p in visible(root) if os.path.isdir(p) or os.path.islink(p)]


def read_submissions(source: Path, work: Path, exercises: tuple[str, ...], known: dict[str, str] | None = None) -> Intake:
    """Map ``source`` (a folder or a zip) to students; ``work`` is an empty folder for unpacking;
    ``known``: stored students' ids by their aliases, so an id that depends on the class keeps its spelling."""
    notes: list[str] = []
    if source.is_file() and source.suffix.lower() == ".zip":
        root = work / "unpacked"
        root.mkdir(parents=True)
        try:
            count = extract_zip(source, root).files
        except UnsafeArchive as error:
            raise GradeError(f"{source} was not unpacked: {error}.") from None
        notes.append(f"Unpacked {count} files from {source.name}.")
    elif source.is_dir():
        root = source
    else:
        raise GradeError(f"{source} is neither a folder of submissions nor a zip of one.")
    root = _descend(root, notes, source.name)
    from . import gradescope_export, lms, moodle  # here, not above: their readers build on read_student

    layout = lms.detect_layout(root)
    if layout == "gradescope":
        submissions = gradescope_export.read_gradescope(root, exercises, notes)
    elif layout == "canvas":
        submissions = lms.read_canvas(root, work, exercises, notes, known)
    elif layout == "classroom":
        submissions = lms.read_classroom(root, exercises, known)
    elif layout == "moodle":
        submissions = (moodle.read_flat_moodle(root, work, exercises, notes, known) if moodle.is_flat_moodle(root)
                       else moodle.read_moodle(root, exercises, notes, known))
    else:
        submissions = _read_folders(root, exercises)
    unique: dict[str, Submission] = {}
    for submission in _valid_ids(submissions, notes):
        if submission.id in unique:
            notes.append(f"Two submissions are both named {submission.id!r}; only the first was graded.")
            continue
        unique[submission.id] = submission
    return Intake(layout, tuple(sorted(unique.values(), key=lambda s: s.id)), tuple(notes), root)


def _valid_ids(submissions: list[Submission], notes: list[str]) -> list[Submission]:
    """Every id as valid text: results.json and the gradebook are UTF-8, and one folder whose name
    is not (bytes from another system's encoding) must cost nobody their grade. Its undecodable
    bytes are spelt as escapes (``\\xff``), made unique against the class's other ids, and said."""
    def valid(text: str) -> bool:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    taken = {s.id for s in submissions if valid(s.id)}
    fixed = []
    for submission in submissions:
        if not valid(submission.id):
            try:
                spelt = submission.id.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            except UnicodeEncodeError:  # a lone surrogate that no undecodable byte made
                spelt = submission.id.encode("utf-8", "backslashreplace").decode("utf-8")
            new_id, number = spelt, 1
            while new_id in taken:
                number += 1
                new_id = f"{spelt}-{number}"
            taken.add(new_id)
            notes.append(f"The name of the submission '{spelt}' (undecodable bytes written as escapes) is not "
                         f"valid UTF-8; it was graded under the id '{new_id}'. Rename it to keep one id from run to run.")
            submission = replace(submission, id=new_id)
        fixed.append(submission)
    return fixed


def annotate(result: StudentResult, submission: Submission) -> StudentResult:
    """The student's result with what intake found: notices, and near misses in place of 'not submitted'."""
    near = dict(submission.near_misses)
    exercises = []
    notices = list(submission.notices)
    for exercise in result.exercises:
        found = near.get(exercise.name)
        if found and exercise.status == "missing":
            found = shown_name(found)  # the student's text: a newline in it would start a line of the report
            text = (f"Found {found} but no {exercise.name}.py; it looks like this exercise under another name, "
                    f"so it was not graded: rename it {exercise.name}.py.")
            tests = tuple(replace(t, message=text) if t.message.startswith(f"{exercise.name}.py was not submitted")
                          else t for t in exercise.tests)
            exercise = replace(exercise, message=text, tests=tests)
            notices.append(f"{found} looks like {exercise.name}.py under another name; it was not graded.")
        exercises.append(exercise)
    return replace(result, exercises=tuple(exercises), notices=tuple(notices), aliases=submission.aliases)
