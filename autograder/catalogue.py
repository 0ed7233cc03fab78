"""The catalogue: known wrong solutions (mistakes) and other correct solutions (variants), side by side.

Each entry is one file, ``catalogue/<exercise>/mistakes/<short_name>.py`` or
``catalogue/<exercise>/variants/<short_name>.py``, holding the imports it uses, only the
function(s) it changes, a module docstring (the one sentence that explains it) and, for a
mistake, ``KILLED_BY = ("test_...",)``: the checks meant to catch it. An entry is graded as the
reference solution with the entry appended, so it differs from the reference in exactly what it
names. A mistake also carries ``TITLE``, ``EXPLANATION`` and ``HINT``: what a student reads when
their function behaves exactly like it (:mod:`autograder.diagnose`). Entries are read with
:mod:`ast` and run only on the trusted side, like the reference; the catalogue never ships.
"""

from __future__ import annotations

import ast
import builtins
import enum
from dataclasses import dataclass
from pathlib import Path


class Kind(enum.Enum):
    MISTAKE = "mistakes"  # must lose points on the checks it names
    VARIANT = "variants"  # must get full marks


@dataclass(frozen=True)
class Entry:
    exercise: str
    name: str
    kind: Kind
    explanation: str  # the docstring: what the entry does, for whoever maintains the graders
    killed_by: tuple[str, ...]
    path: Path
    title: str = ""  # a mistake, as a student reads it: a short name, one sentence, one hint
    sentence: str = ""
    hint: str = ""
    same_as: tuple[str, ...] = ()  # mistakes that behave identically on every input a check makes
    # "shapes": its numbers come from where no replay reaches (a global generator); "identity": values,
    # and which inputs a result hands back as they are (what the mistake is about)
    compare: str = "values"

    @property
    def key(self) -> str:
        return f"{self.exercise}--{self.name}"


def _read_entry(path: Path) -> Entry:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    constants: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if getattr(target, "id", "") in _CONSTANTS:
                    constants[target.id] = ast.literal_eval(node.value)
    explanation = " ".join((ast.get_docstring(tree) or "").split())
    text = {k: " ".join(str(constants.get(k, "")).split()) for k in ("TITLE", "EXPLANATION", "HINT")}
    return Entry(path.parent.parent.name, path.stem, Kind(path.parent.name), explanation,
                 tuple(constants.get("KILLED_BY", ())), path, text["TITLE"], text["EXPLANATION"], text["HINT"],
                 tuple(constants.get("SAME_AS", ())), str(constants.get("COMPARE", "values")))


# Module-level constants an entry may set: the checks that must catch it, its words for the
# student, and the mistakes it cannot be told apart from.
_CONSTANTS = ("KILLED_BY", "TITLE", "EXPLANATION", "HINT", "SAME_AS", "COMPARE")


def load_entries(folder: Path, kind: Kind | None = None) -> list[Entry]:
    """Every entry under ``folder`` (the catalogue), sorted by exercise, kind, then name."""
    if not folder.is_dir():
        return []
    kinds = [kind] if kind else list(Kind)
    paths = sorted(p for k in kinds for p in folder.glob(f"*/{k.value}/*.py") if not p.name.startswith("_"))
    return [_read_entry(p) for p in paths]


def unbound_names(source: str) -> set[str]:
    """Global names an entry uses without importing or defining them (it must stand on its own)."""
    tree = ast.parse(source)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            bound |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)} if hasattr(node, "args") else set()
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - bound


def compose(reference_source: str, entry_source: str) -> str:
    """The reference with the entry appended: later definitions win in Python."""
    return f"{reference_source.rstrip()}\n\n\n# ---- catalogue entry: definitions below replace the ones above ----\n{entry_source}"


def write_submission(entry: Entry, reference_dir: Path, into: Path) -> Path:
    """A one-file submission folder for ``entry``; returns the folder."""
    into.mkdir(parents=True, exist_ok=True)
    reference = (reference_dir / f"{entry.exercise}.py").read_text(encoding="utf-8")
    (into / f"{entry.exercise}.py").write_text(compose(reference, entry.path.read_text(encoding="utf-8")),
                                               encoding="utf-8")
    return into
