"""Reading an LMS's export: which layout a class's folder is in, and its students read from it.

- Canvas's "Download Submissions": flat files ``login[_late]_userid_submissionid_file``, a
  resubmitted file renamed ``file-1.py``, ``file-2.py`` (the highest number is the newest); each
  student's newest files are copied into a folder of their own;
- Gradescope's "Export Submissions": ``submission_metadata.yml`` beside one ``submission_<id>/``
  folder per submission, the submitters listed in the YAML (a group shares its folder), read by
  :mod:`autograder.gradescope_export`;
- GitHub Classroom's clone of every student's repository, ``<assignment>-<login>/``: the common
  prefix is dropped from the id, and the repository's name kept as an alias.

Anything else is the kit's own layout, one folder per student (:mod:`autograder.intake`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from .archive import ArchiveTooLarge, UnsafeArchive, ZipLimits, extract_zip
from .intake import Submission, is_plain_dir, read_student, visible
from .moodle import is_flat_moodle, is_moodle
from .submission import plain_file

CANVAS_NAME = re.compile(r"^(?P<who>[^_]+?)(?P<late>_late)?_(?P<uid>\d+)_(?P<sub>\d+)_(?P<file>.+)$", re.IGNORECASE)
_RESUBMISSION = re.compile(r"^(?P<base>.+?)-(?P<n>\d+)(?P<ext>\.[^.]+)$")


def detect_layout(root: Path) -> str:
    entries = visible(root)
    if (root / "submission_metadata.yml").is_file():
        return "gradescope"
    if is_flat_moodle(root):
        return "moodle"
    files = [p for p in entries if os.path.isfile(p)]
    if files and sum(bool(CANVAS_NAME.match(p.name)) for p in files) * 2 >= len(files) and \
            not any(is_plain_dir(p) for p in entries):
        return "canvas"
    folders = [p for p in entries if is_plain_dir(p)]
    if is_moodle(root):
        return "moodle"
    # A repository the grader cannot look into says nothing either way (its student's row says why)
    seen = [_holds_git(p) for p in folders]
    if True in seen and False not in seen:
        return "classroom"
    return "folders"


def _holds_git(folder: Path) -> bool | None:
    try:
        os.lstat(folder / ".git")
        return True
    except FileNotFoundError:
        return False
    except OSError:
        return None


def read_classroom(root: Path, exercises: tuple[str, ...], known: dict[str, str] | None = None) -> list[Submission]:
    """``known``: the id an earlier run into the same output gave each repository, by its name. The
    prefix dropped depends on which repositories are there (one late clone alone has none), so a
    repository graded before keeps its id, and a late regrade replaces its row instead of adding one."""
    folders = [p for p in visible(root) if is_plain_dir(p)]
    names = [p.name for p in folders]
    prefix = ""
    if len(names) > 1:
        common = os.path.commonprefix(names)
        prefix = common[:common.rfind("-") + 1]
    known = known or {}
    return [read_student(known.get(p.name) or p.name[len(prefix):] or p.name, p, exercises, aliases=(p.name,))
            for p in folders]


# All of one student's zips together: six exercise files of at most 1 MiB each fit many times over,
# and a handful of small zips cannot fill the grader's disk (each alone may unpack to the 512 MiB
# the instructor's class zip may). Past it, their further zips are not unpacked.
STUDENT_ZIPS = ZipLimits(max_total_bytes=64 << 20)
_OVER_BUDGET = (f"a student's zips may unpack to {STUDENT_ZIPS.max_total_bytes >> 20} MiB and "
                f"{STUDENT_ZIPS.max_members} files in all, and yours pass that")


def _unpack_student_zips(folder: Path) -> tuple[str, ...]:
    """A student who handed in zips: each unpacked in place (safely), all within one budget,
    :data:`STUDENT_ZIPS`; a bad zip, or one past the budget, is said, not fatal."""
    notices = []
    left = STUDENT_ZIPS
    for archive in [p for p in visible(folder) if p.suffix.lower() == ".zip" and os.path.isfile(p)]:
        notice, left = _unpack_student_zip(archive, folder / archive.stem, left)
        notices.append(notice)
        archive.unlink()
    return tuple(notices)


def _unpack_student_zip(archive: Path, target: Path, left: ZipLimits) -> tuple[str, ZipLimits]:
    """One zip unpacked within what is ``left`` of its student's budget: the notice, and what is left.
    What a refused zip wrote before it stopped (and was removed) counts too, so no number of zips
    unpacks more than the budget between them."""
    if left.max_total_bytes <= 0 or left.max_members <= 0:
        return f"Your {archive.name} was not unpacked: {_OVER_BUDGET}.", left
    try:
        target.mkdir()
    except OSError:  # a file of the student's by that name, or a zip named as another ('a.zip', 'a.ZIP')
        return f"Your {archive.name} was not unpacked: something named {target.name} is already there.", left
    try:
        done = extract_zip(archive, target, left)
        notice = f"Unpacked your {archive.name}."
    except ArchiveTooLarge:
        shutil.rmtree(target, ignore_errors=True)
        return f"Your {archive.name} was not unpacked: {_OVER_BUDGET}.", replace(left, max_total_bytes=0)
    except UnsafeArchive as error:
        shutil.rmtree(target, ignore_errors=True)
        done, notice = error.unpacked, f"Your {archive.name} was not unpacked: {error}."
    return notice, replace(left, max_members=left.max_members - done.files,
                           max_total_bytes=left.max_total_bytes - done.bytes)


def _plain_name(name: str) -> bool:
    """A name that is one file's in the student's folder: not '.', '..', empty, or a path."""
    return name not in ("", ".", "..") and "/" not in name and "\0" not in name


def _list_canvas(root: Path, notes: list[str], known: dict[str, str]) -> tuple[dict, dict, dict[str, list[str]]]:
    """Canvas's flat files by student: each name's newest file, the student's Canvas id and
    lateness, and the names Canvas kept that no file in a folder can have."""
    chosen: dict[str, dict[str, tuple[tuple[int, int], Path, str]]] = {}
    info: dict[str, tuple[str, bool]] = {}
    strange: dict[str, list[str]] = {}
    ignored = []
    matches = []
    for path in visible(root):
        match = CANVAS_NAME.match(path.name) if os.path.isfile(path) and not os.path.islink(path) else None
        if not match:
            ignored.append(path.name)
        else:
            matches.append((path, match))
    ids = _canvas_ids([m for _, m in matches], notes, known)
    for path, match in matches:
        who, name = ids[match["who"], match["uid"]], match["file"]
        if not _plain_name(name):  # '..' would be copied onto the class's folder, '.' onto the student's
            strange.setdefault(who, []).append(name)
            continue
        original = name
        resubmission = _RESUBMISSION.match(name)
        number = int(resubmission["n"]) if resubmission else 0
        if resubmission:
            name = resubmission["base"] + resubmission["ext"]
        files = chosen.setdefault(who, {})
        rank = (int(match["sub"]), number)
        if name not in files or rank > files[name][0]:
            files[name] = (rank, path, original)
        late = info.get(who, ("", False))[1] or bool(match["late"])
        info[who] = (match["uid"], late)
    if ignored:
        notes.append(f"Ignored {len(ignored)} entries that are not named as Canvas names submissions: "
                     f"{', '.join(ignored[:5])}{' ...' if len(ignored) > 5 else ''}.")
    alone = sorted(who for who in strange if who not in chosen)  # no row to tell them in
    if alone:
        notes.append(f"Ignored the Canvas files of {', '.join(alone)}, as none is named as a file can be "
                     f"({', '.join(repr(name) for who in alone for name in strange[who])}).")
    return chosen, info, strange


def _canvas_ids(matches: list, notes: list[str], known: dict[str, str]) -> dict[tuple[str, str], str]:
    """Each (login, Canvas user id) pair's student id: the id an earlier run into the same output
    gave that user id (``known``, by alias), else the login, or, where Canvas gave one login to
    several users (two students of the same name, in this export or stored before), the login and
    user id, so that no student's files are ever merged into, or graded over, a namesake's."""
    users: dict[str, set[str]] = {}
    for match in matches:
        users.setdefault(match["who"], set()).add(match["uid"])
    ids, shared, stored = {}, set(), set(known.values())
    for who, uids in users.items():
        for uid in uids:
            if uid in known and _plain_name(known[uid]):  # a folder of the work area is named by it
                ids[who, uid] = known[uid]
            elif len(uids) > 1 or who in stored:  # a namesake here, or stored under this login
                ids[who, uid] = f"{who}_{uid}"
                shared.add(who)
            else:
                ids[who, uid] = who
    if shared:
        notes.append(f"Canvas named several students alike ({', '.join(sorted(shared))}); each was graded under "
                     "the name followed by their Canvas user id.")
    return ids


def read_canvas(root: Path, work: Path, exercises: tuple[str, ...], notes: list[str],
                known: dict[str, str] | None = None) -> list[Submission]:
    """``known``: stored students' ids by their aliases (the Canvas user id among them)."""
    chosen, info, strange = _list_canvas(root, notes, known or {})
    submissions = []
    for who, files in sorted(chosen.items()):
        folder = work / "canvas" / who
        folder.mkdir(parents=True)
        notices = [f"Canvas kept a file of yours as {name!r}, which no file can be named; it was ignored."
                   for name in strange.get(who, ())]
        for name, (rank, path, original) in sorted(files.items()):
            problem = copy_plain_file(path, folder / name)
            if problem:
                notices.append(f"{original} {problem}; it was not graded.")
                continue
            if rank[1]:
                notices.append(f"Canvas held resubmissions of {name}; the newest ({original}) was graded.")
        uid, late = info[who]
        if late:
            notices.append("Canvas marked this submission late.")
        notices.extend(_unpack_student_zips(folder))
        submissions.append(read_student(who, folder, exercises, tuple(notices), aliases=(uid,)))
    return submissions


_CHANGED = "changed while the class was read (it is no longer a plain file)"


def copy_plain_file(path: Path, target: Path) -> str | None:
    """Copy a file listed as a plain one, if it still is (:func:`~autograder.submission.plain_file`):
    a link swapped in since, to a classmate's file or the reference, is never followed. At most what
    a zip may hold, plus one byte: a larger file is refused for its size, whatever it is.

    Never raises: returns why the file was not copied (words to follow its name), or None."""
    try:
        with plain_file(path) as source:
            return _CHANGED if source is None else _write_copy(source, target)
    except OSError:
        return _CHANGED


def _write_copy(source: BinaryIO, target: Path) -> str | None:
    """``source`` copied to the new file ``target``, or why not; a copy that fails part way is
    removed, so a truncated file is never graded as the student's."""
    made = False
    try:
        with open(target, "xb") as copy:
            made = True
            left = ZipLimits().max_total_bytes + 1
            while left > 0 and (chunk := source.read(min(left, 1 << 20))):
                copy.write(chunk)
                left -= len(chunk)
    except OSError as error:
        if made:
            with contextlib.suppress(OSError):
                target.unlink()
        return f"could not be copied for grading ({error.strerror or type(error).__name__})"
    return None
