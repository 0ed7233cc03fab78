"""Fingerprints that say when a stored exercise result still holds: one key per student and exercise.

An exercise's result depends on the student's file for it, that exercise's grader, reference and
catalogued mistakes (whose titles and hints a failed check's diagnosis shows), what every grader
shares (pytest.ini, course.toml, any other file in graders/ or solutions/ or at the catalogue's
top, the kit's own grading code), the settings that change scores (seed, limits, isolation) and the
versions of Hypothesis, numpy and Python.
Its key hashes exactly those, so changing one grader changes the keys of that exercise alone.
"""

from __future__ import annotations

import hashlib
import platform
import sys
from pathlib import Path

from . import __version__
from .model import Exercise
from .submission import look

_KIT = Path(__file__).resolve().parent
_NOT_GRADING = ("render",)  # the kit's code that only writes outputs, which are rewritten anyway


def _digest(*parts: bytes | str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def _files(folder: Path, skip: set[str]) -> list[bytes | str]:
    """Every file under ``folder`` but ``skip`` and caches, as name and content, in a stable order."""
    parts: list[bytes | str] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        # pytest's own caches (__pycache__, .pytest_cache) change with every run and grade nothing
        if any(part == "__pycache__" or part.startswith(".") for part in relative.parts) or path.name in skip \
                or not path.is_file():
            continue
        parts += [relative.as_posix(), path.read_bytes()]
    return parts


def grader_keys(graders_dir: Path, reference_dir: Path | None, course: tuple[Exercise, ...],
                terms: tuple, catalogue_dir: Path | None = None) -> dict[str, str]:
    """Per exercise: the fingerprint of everything on the trusted side its result depends on."""
    own = {f"test_{e.name}.py" for e in course}
    catalogue = catalogue_dir if catalogue_dir is not None and catalogue_dir.is_dir() else None
    shared = _digest(__version__, repr(terms), *environment(),
                     *_files(graders_dir, own),
                     *(_files(reference_dir, {f"{e.name}.py" for e in course}) if reference_dir else ["no reference"]),
                     *(_top_files(catalogue) if catalogue else ["no catalogue"]),
                     *_kit_sources())
    keys = {}
    for exercise in course:
        grader = graders_dir / f"test_{exercise.name}.py"
        reference = reference_dir / f"{exercise.name}.py" if reference_dir else None
        mistakes = catalogue / exercise.name if catalogue else None
        keys[exercise.name] = _digest(shared, grader.read_bytes() if grader.is_file() else b"no grader",
                                      reference.read_bytes() if reference and reference.is_file() else b"no reference",
                                      *(_files(mistakes, set()) if mistakes and mistakes.is_dir() else ["no mistakes"]))
    return keys


def environment() -> list[str]:
    """What else decides a result: Hypothesis draws the hidden cases and numpy computes both sides, so
    an upgrade of either (or of Python, or another machine) may change a score under the same seed."""
    return [f"hypothesis {installed_version('hypothesis')}", f"numpy {installed_version('numpy')}",
            f"python {sys.version}", f"machine {platform.machine()}"]


def installed_version(package: str) -> str:
    """The installed version of ``package``, from its dist-info folder's name: importlib.metadata
    would cost ``check`` the import of the email package, a tenth of a second."""
    for entry in sys.path:
        try:
            for found in sorted(Path(entry or ".").glob(f"{package}-*.dist-info")):
                return found.name[len(package) + 1:-len(".dist-info")]
        except OSError:
            continue
    return "none"


def _top_files(folder: Path) -> list[bytes | str]:
    """The files directly in ``folder`` (the catalogue's own, shared by every exercise), as name and content."""
    return [part for path in sorted(folder.iterdir()) if path.is_file() and not path.name.startswith(".")
            for part in (path.name, path.read_bytes())]


def _kit_sources() -> list[bytes | str]:
    parts: list[bytes | str] = []
    for path in sorted(_KIT.rglob("*.py")):
        relative = path.relative_to(_KIT)
        if relative.parts[0] in _NOT_GRADING or "__pycache__" in relative.parts:
            continue
        parts += [relative.as_posix(), path.read_bytes()]
    return parts


def exercise_key(grader_key: str, entry_digest: str) -> str:
    """The key of one exercise's result: its grader's key and the digest of the entry graded (:class:`~autograder.submission.Entry`)."""
    return _digest(grader_key, entry_digest)


REPLACED = "replaced:"  # begins the key of an entry read through a folder not the student's pin: no result is ever kept under it


def exercise_keys(folder: Path, course: tuple[Exercise, ...], graders: dict[str, str],
                  max_bytes: int, anchor: str = "", pin: tuple[int, int] | None = None) -> dict[str, str]:
    """Per exercise: the key of this student's result, from their entry as it is now (read as the
    worker reads it, from ``anchor`` down) and the exercise's grader key. An entry read through a
    folder other than ``pin`` (the student's, as the class was read) gets a key that no worker's
    reading matches, so it is shown as changed during grading, never graded as theirs."""
    keys = {}
    for exercise in course:
        entry = look(folder / f"{exercise.name}.py", max_bytes, anchor)
        key = exercise_key(graders[exercise.name], entry.digest)
        keys[exercise.name] = REPLACED + key if pin is not None and entry.via not in (None, pin) else key
    return keys
