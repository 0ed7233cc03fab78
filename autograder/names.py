"""Report file names: a student's own readable name wherever that is safe and unique.

A name is a function of the whole class, not of one id alone: two ids that would land on the
same file (``Ada`` and ``ada`` on a case-insensitive disk, NFC and NFD spellings of ``Émile``)
both get a hash suffix, so neither depends on which was graded first.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import defaultdict

REPORTS = "reports"
# Windows refuses these as file names, with or without an extension, in any case.
_RESERVED = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
             *(f"{p}{n}" for p in ("COM", "LPT") for n in (*"123456789", "¹", "²", "³"))}
_FORBIDDEN = set('<>:"/\\|?*')
# Control, format (bidi overrides), surrogate (undecodable bytes), private-use and unassigned
# characters, and every separator but the plain space.
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_HASH_LENGTHS = (0, 8, 16, 64)
_MAX_BYTES = 100  # of UTF-8 before the suffix; a name stays well under the usual 255-byte limit


def _readable(student_id: str) -> tuple[str, bool]:
    """The id as a safe file name, and whether it had to be changed to get there."""
    text = unicodedata.normalize("NFC", student_id)
    safe = "".join("_" if c in _FORBIDDEN or unicodedata.category(c) in _UNSAFE_CATEGORIES
                   or (c.isspace() and c != " ") else c for c in text)
    safe = safe.lstrip(". ").rstrip(". ")
    while len(safe.encode("utf-8")) > _MAX_BYTES:
        safe = safe[:-1]
    if safe.split(".")[0].rstrip(" ").upper() in _RESERVED:
        safe = f"_{safe}"
    changed = safe != text
    return safe or "student", changed or not safe


def _digest(student_id: str) -> str:
    return hashlib.sha256(student_id.encode("utf-8", "surrogateescape")).hexdigest()


def name_key(stem: str) -> str:
    # What a case-insensitive, normalising file system (macOS, Windows) sees as the same name.
    return unicodedata.normalize("NFC", stem).casefold()


def report_stems(student_ids) -> dict[str, str]:
    """A distinct, safe file stem for every id: the readable name, with a hash only where needed."""
    readable = {i: _readable(i) for i in student_ids}
    # 0: no suffix; then ever longer hashes for ids whose names still clash.
    levels = {i: 1 if changed else 0 for i, (_text, changed) in readable.items()}
    while True:
        stems = {i: readable[i][0] if level == 0 else f"{readable[i][0]}-{_digest(i)[:_HASH_LENGTHS[level]]}"
                 for i, level in levels.items()}
        groups = defaultdict(list)
        for student_id, stem in stems.items():
            groups[name_key(stem)].append(student_id)
        clashing = [i for members in groups.values() if len(members) > 1 for i in members]
        if not clashing:
            return stems
        for student_id in clashing:  # full-length hashes of distinct ids never clash: this ends
            levels[student_id] = min(levels[student_id] + 1, len(_HASH_LENGTHS) - 1)


def report_paths(student_ids) -> dict[str, str]:
    """Each student's HTML report, relative to the output folder, with ``/`` as separator."""
    return {i: f"{REPORTS}/{stem}.html" for i, stem in report_stems(student_ids).items()}
