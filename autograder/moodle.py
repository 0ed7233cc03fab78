"""Moodle's "Download all submissions", in folders (``Full Name_<participant>_assignsubmission_<plugin>_/``)
or flat, every file named ``Full Name_<participant>_assignsubmission_<plugin>_<file name>``.

One student may have several folders (or files), one per submission plugin (``file`` for uploaded
files, ``onlinetext``, ``comments``): they are one student, graded from their uploaded files, never
a second student with nothing submitted. The id is the full name, with the participant number
where two students share a name (or an earlier run into the same output stored the name under
another number); the participant number is kept as an alias.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .intake import Submission, is_plain_dir, read_student, visible

FOLDER = re.compile(r"^(?P<name>.+)_(?P<pid>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_$")
FLAT = re.compile(r"^(?P<name>.+?)_(?P<pid>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_(?P<file>.+)$")


def is_moodle(root: Path) -> bool:
    """Every folder is named as Moodle names a participant's submission folder."""
    folders = [p for p in visible(root) if is_plain_dir(p)]
    return bool(folders) and all(FOLDER.match(p.name) for p in folders)


def is_flat_moodle(root: Path) -> bool:
    """No folders, and every file named as Moodle names a participant's file in a flat download."""
    entries = visible(root)
    return bool(entries) and all(os.path.isfile(p) and not os.path.islink(p) and FLAT.match(p.name) for p in entries)


def read_flat_moodle(root: Path, work: Path, exercises: tuple[str, ...], notes: list[str],
                     known: dict[str, str] | None = None) -> list[Submission]:
    """A flat download: each participant's uploaded files copied into a folder of their own
    (never following a link swapped in since the class was read), then read as the folders are."""
    from .lms import copy_plain_file  # lms finds the layout with is_moodle, above

    people: dict[str, tuple[str, dict[str, Path]]] = {}
    notices: dict[str, list[str]] = {}
    for path in visible(root):
        match = FLAT.match(path.name)
        if not match:
            continue
        folder = work / "moodle" / match["pid"]
        folder.mkdir(parents=True, exist_ok=True)
        people.setdefault(match["pid"], (match["name"], {}))[1][match["plugin"]] = folder
        name = match["file"]
        if match["plugin"] == "file" and name not in (".", "..") and not (folder / name).exists():
            problem = copy_plain_file(path, folder / name)
            if problem:
                notices.setdefault(match["pid"], []).append(f"{name} {problem}; it was not graded.")
    return _graded(people, exercises, notes, known or {}, notices, "files")


def read_moodle(root: Path, exercises: tuple[str, ...], notes: list[str],
                known: dict[str, str] | None = None) -> list[Submission]:
    """``known``: stored students' ids by their aliases (the participant number among them)."""
    people: dict[str, tuple[str, dict[str, Path]]] = {}
    for folder in visible(root):
        match = FOLDER.match(folder.name) if is_plain_dir(folder) else None
        if match:
            people.setdefault(match["pid"], (match["name"], {}))[1][match["plugin"]] = folder
    return _graded(people, exercises, notes, known or {}, {}, "folders")


def _graded(people: dict[str, tuple[str, dict[str, Path]]], exercises: tuple[str, ...], notes: list[str],
            known: dict[str, str], notices: dict[str, list[str]], kind: str) -> list[Submission]:
    """Each participant read from their files' folder, under their name (with their participant
    number where it is shared, or was stored under another number)."""
    names: dict[str, int] = {}
    for name, _plugins in people.values():
        names[name] = names.get(name, 0) + 1
    stored = set(known.values())
    submissions, others, shared = [], 0, set()
    for pid, (name, plugins) in sorted(people.items()):
        if pid in known:
            sid = known[pid]
        elif names[name] > 1 or name in stored:  # a namesake here, or stored under this name
            sid = f"{name}_{pid}"
            shared.add(name)
        else:
            sid = name
        folder = plugins.get("file") or plugins[sorted(plugins)[0]]
        others += len(plugins) - 1
        submissions.append(read_student(sid, folder, exercises, tuple(notices.get(pid, ())), aliases=(pid,)))
    if shared:
        notes.append(f"Moodle named several students alike ({', '.join(sorted(shared))}); each was graded under "
                     "the name followed by their participant number.")
    if others:
        notes.append(f"Ignored {others} Moodle {kind} beside students' file submissions (online text, "
                     "comments, feedback): each student was graded once, from their files.")
    return submissions
