"""Moodle's "Download all submissions" (in folders): ``Full Name_<participant>_assignsubmission_<plugin>_/``.

One student may have several folders, one per submission plugin (``file`` for uploaded files,
``onlinetext``, ``comments``): they are one student, graded from the files' folder, never a
second student with nothing submitted. The id is the full name, with the participant number
where two students share a name (or an earlier run into the same output stored the name under
another number); the participant number is kept as an alias.
"""

from __future__ import annotations

import re
from pathlib import Path

from .intake import Submission, is_plain_dir, read_student, visible

FOLDER = re.compile(r"^(?P<name>.+)_(?P<pid>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_$")


def is_moodle(root: Path) -> bool:
    """Every folder is named as Moodle names a participant's submission folder."""
    folders = [p for p in visible(root) if is_plain_dir(p)]
    return bool(folders) and all(FOLDER.match(p.name) for p in folders)


def read_moodle(root: Path, exercises: tuple[str, ...], notes: list[str],
                known: dict[str, str] | None = None) -> list[Submission]:
    """``known``: stored students' ids by their aliases (the participant number among them)."""
    known = known or {}
    people: dict[str, tuple[str, dict[str, Path]]] = {}
    for folder in visible(root):
        match = FOLDER.match(folder.name) if is_plain_dir(folder) else None
        if match:
            people.setdefault(match["pid"], (match["name"], {}))[1][match["plugin"]] = folder
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
        submissions.append(read_student(sid, folder, exercises, aliases=(pid,)))
    if shared:
        notes.append(f"Moodle named several students alike ({', '.join(sorted(shared))}); each was graded under "
                     "the name followed by their participant number.")
    if others:
        notes.append(f"Ignored {others} Moodle folders beside students' file submissions (online text, "
                     "comments, feedback): each student was graded once, from their files.")
    return submissions
