"""The catalogue of known wrong solutions (mutants) and of correct variants.

Each entry is one file, ``<folder>/<exercise>/<short_name>.py``, holding only the function(s) it
changes, a module docstring (the one sentence that explains the misconception) and, for
mutants, ``KILLED_BY = ("test_...",)``: the checks meant to catch it. An entry is graded as the
reference solution with the entry's definitions appended, so it differs from the reference in
exactly what it names. Entries are read with :mod:`ast`, never imported, on the trusted side.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    exercise: str
    name: str
    explanation: str
    killed_by: tuple[str, ...]
    path: Path

    @property
    def key(self) -> str:
        return f"{self.exercise}--{self.name}"


def _read_entry(path: Path) -> Entry:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    killed_by: tuple[str, ...] = ()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "KILLED_BY" for t in node.targets):
            killed_by = tuple(ast.literal_eval(node.value))
    explanation = " ".join((ast.get_docstring(tree) or "").split())
    return Entry(path.parent.name, path.stem, explanation, killed_by, path)


def load_entries(folder: Path) -> list[Entry]:
    """Every entry under ``folder``, sorted by exercise then name."""
    if not folder.is_dir():
        return []
    return [_read_entry(p) for p in sorted(folder.glob("*/*.py")) if not p.name.startswith("_")]


def compose(reference_source: str, entry_source: str) -> str:
    """The reference with the entry's definitions appended: later definitions win in Python."""
    return f"{reference_source.rstrip()}\n\n\n# ---- catalogue entry: definitions below replace the ones above ----\n{entry_source}"


def write_submission(entry: Entry, reference_dir: Path, into: Path) -> Path:
    """A one-file submission folder for ``entry``; returns the folder."""
    into.mkdir(parents=True, exist_ok=True)
    reference = (reference_dir / f"{entry.exercise}.py").read_text(encoding="utf-8")
    (into / f"{entry.exercise}.py").write_text(compose(reference, entry.path.read_text(encoding="utf-8")),
                                               encoding="utf-8")
    return into
