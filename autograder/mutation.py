"""Mutation testing by a tool: mutmut's operators applied to solutions/, every mutant graded.

mutmut's own runner imports the code under test into the test process and switches mutants on
with trampolines; here student code never runs in the grader's interpreter, and a grader sees a
solution only as a file a sandboxed worker loads. So only mutmut's mutation operators are used
(operators, constants, comparisons, arguments, return values, ...): each mutant becomes a whole
solution file and is graded by the real graders like any submission. A mutant that keeps full
marks survives; a survivor must be listed in ``catalogue/equivalent.toml`` with the reason it
behaves like the reference, or it is a hole.
"""

from __future__ import annotations

import tempfile
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from .errors import GradeError
from .model import host_failed, load_course
from .runner import Settings, grade_batch

EQUIVALENT_FILE = Path("catalogue") / "equivalent.toml"


@dataclass(frozen=True)
class Mutant:
    exercise: str
    name: str  # "<exercise>: <line>: <original> -> <mutated>", stable while the reference is unchanged
    source: str


@dataclass(frozen=True)
class MutationResult:
    mutants: tuple[Mutant, ...]
    killed: frozenset[str]
    equivalent: dict  # mutant name -> reason
    exercises: tuple[str, ...]

    def survivors(self, exercise: str | None = None) -> list[Mutant]:
        return [m for m in self.mutants if m.name not in self.killed and exercise in (None, m.exercise)]

    @property
    def holes(self) -> list[Mutant]:
        return [m for m in self.survivors() if m.name not in self.equivalent]

    @property
    def stale(self) -> list[str]:
        """Listed as equivalent but killed or no longer generated: the list must be kept exact."""
        alive = {m.name for m in self.survivors()}
        return sorted(name for name in self.equivalent if name not in alive)

    def score(self, exercise: str) -> tuple[int, int]:
        """(killed, mutants that are not equivalent) for one exercise."""
        mine = [m for m in self.mutants if m.exercise == exercise]
        counted = [m for m in mine if m.name not in self.equivalent]
        return sum(m.name in self.killed for m in counted), len(counted)

    @property
    def sound(self) -> bool:
        return not self.holes and not self.stale


def _one_line(code: str, limit: int = 70) -> str:
    text = " ".join(code.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def generate(exercise: str, source: str) -> list[Mutant]:
    """Every mutant mutmut's operators make of ``source``, one mutation each, duplicates dropped."""
    try:
        import libcst as cst
        from libcst.metadata import MetadataWrapper, PositionProvider
        from mutmut.mutation.file_mutation import MutationVisitor
        from mutmut.mutation.mutators import mutation_operators
        from mutmut.mutation.pragma_handling import IgnoredCode
    except ImportError:
        raise GradeError("validate --mutate needs mutmut 3: pip install -e '.[mutate]'.") from None

    wrapper = MetadataWrapper(cst.parse_module(source))
    visitor = MutationVisitor(mutation_operators, IgnoredCode(set(), set(), set()))
    wrapper.visit(visitor)
    positions = wrapper.resolve(PositionProvider)
    module = wrapper.module
    mutants: dict[str, Mutant] = {}
    seen: set[str] = set()
    for mutation in visitor.mutations:
        mutated = module.deep_replace(mutation.original_node, mutation.mutated_node).code
        if mutated in seen or mutated == source:
            continue
        seen.add(mutated)
        line = positions[mutation.original_node].start.line if mutation.original_node in positions else 0
        name = (f"{exercise}: {line}: {_one_line(module.code_for_node(mutation.original_node))} -> "
                f"{_one_line(module.code_for_node(mutation.mutated_node))}")
        while name in mutants:
            name += " (again)"
        mutants[name] = Mutant(exercise, name, mutated)
    return list(mutants.values())


def load_equivalent(root: Path) -> dict[str, str]:
    path = root / EQUIVALENT_FILE
    if not path.is_file():
        return {}
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])
    return {str(e["mutant"]): str(e["reason"]) for e in entries}


def mutation_test(root: Path, settings: Settings, jobs: int, seeds: tuple[int, ...],
                  progress: Callable[[str], None] = lambda text: None) -> MutationResult:
    """Grade every mutant of every reference solution; a mutant is killed if it loses points on some seed."""
    exercises = tuple(e.name for e in load_course(root / "graders"))
    mutants = [m for name in exercises
               for m in generate(name, (root / "solutions" / f"{name}.py").read_text(encoding="utf-8"))]
    killed: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="mutate-") as scratch:
        folders = {}
        for index, mutant in enumerate(mutants):
            folder = Path(scratch) / f"m{index}"
            folder.mkdir()
            (folder / f"{mutant.exercise}.py").write_text(mutant.source, encoding="utf-8")
            folders[f"m{index}"] = (mutant, folder)
        for seed in seeds:
            pending = [(key, folder) for key, (mutant, folder) in folders.items() if mutant.name not in killed]
            progress(f"{len(pending)} mutants of solutions/ (mutmut's operators), seed {seed}")
            for result in grade_batch(pending, _with_seed(settings, seed), jobs):
                mutant = folders[result.id][0]
                # Points withheld because the host failed a check kill nothing: that would hide a hole.
                if any(e.score < e.max_score and not host_failed(e) for e in result.exercises if e.name == mutant.exercise):
                    killed.add(mutant.name)
    return MutationResult(tuple(mutants), frozenset(killed), load_equivalent(root), exercises)


def _with_seed(settings: Settings, seed: int) -> Settings:
    return replace(settings, seed=seed)
