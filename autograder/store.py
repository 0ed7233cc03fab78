"""The output folder's store: every exercise result kept as soon as it is known, keyed by what it depends on.

``OUT/.store/<hash of the student id>.json`` holds one student's exercise results, each with the
key (:mod:`autograder.fingerprint`) it was graded under. A record is written whole and durably
(a temporary file, fsync, rename, fsync of the folder), so a run killed at any moment leaves
every record it finished and none half-written. ``OUT/.store/run.json`` holds the terms of the
run that wrote them (the seed above all), so a run that never reached results.json still resumes
on the same terms. A record that cannot be read is regraded, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from .files import temporary_for
from .model import ExerciseResult, ResultsFormatError, exercise_from_dict

STORE = ".store"
_RUN = "run.json"


@dataclass(frozen=True)
class Stored:
    """One exercise result as stored: the key it was graded under, when, and in which sandbox."""

    key: str
    result: ExerciseResult
    graded: str
    sandbox: str


@dataclass(frozen=True)
class Terms:
    """What the store's results were graded on; ``replacing`` while a --fresh run is unfinished."""

    seed: int
    replacing: bool = False


def write_durably(path: Path, data: bytes) -> None:
    """``path`` holds ``data`` or what it held before, whenever this process is killed."""
    temporary = temporary_for(path)
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a crash of the machine
    finally:
        os.close(folder)


def is_store(out: Path) -> bool:
    """Whether ``out`` holds a store the kit wrote (a run that stopped before writing results.json)."""
    return (out / STORE / _RUN).is_file()


class ResultStore:
    """The store of one output folder; only the process holding the folder's lock uses it."""

    def __init__(self, out: Path) -> None:
        self.folder = out / STORE

    def terms(self) -> Terms | None:
        try:
            data = json.loads((self.folder / _RUN).read_bytes())
            return Terms(int(data["seed"]), bool(data.get("replacing", False)))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def begin(self, terms: Terms) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_durably(self.folder / _RUN, json.dumps(asdict(terms)).encode())

    def clear(self) -> None:
        """Forget every stored result (--fresh)."""
        if self.folder.is_dir() and not self.folder.is_symlink():
            shutil.rmtree(self.folder)

    def _path(self, student_id: str) -> Path:
        name = hashlib.sha256(student_id.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.folder / f"{name}.json"

    def read(self, student_id: str) -> dict[str, Stored]:
        """The student's stored exercise results by exercise name; empty when none can be read."""
        try:
            data = json.loads(self._path(student_id).read_bytes().decode("utf-8"))
            if not isinstance(data, dict) or data.get("id") != student_id:
                return {}
            return {name: Stored(str(entry["key"]), exercise_from_dict(entry["result"]), str(entry["graded"]),
                                 str(entry["sandbox"]))
                    for name, entry in data["exercises"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, ResultsFormatError):
            return {}

    def write(self, student_id: str, exercises: dict[str, Stored]) -> None:
        record = {"id": student_id, "exercises": {
            name: {"key": s.key, "result": asdict(s.result), "graded": s.graded, "sandbox": s.sandbox}
            for name, s in exercises.items()}}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_durably(self._path(student_id), json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogateescape"))
