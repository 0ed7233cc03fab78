"""Proving the graders both ways: the reference and every correct variant score full marks on
every seed, and every catalogued mistake loses points on the check meant for it."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .catalogue import Entry, Kind, load_entries, write_submission
from .model import ExerciseResult, host_failed
from .runner import Settings, grade_batch


@dataclass(frozen=True)
class Finding:
    kind: str  # flake | false-rejection | hole
    subject: str
    seed: int
    detail: str


@dataclass(frozen=True)
class Validation:
    seeds: tuple[int, ...]
    exercises: tuple[str, ...]
    checks: dict  # exercise -> tuple of check names, in grader order
    kills: dict  # mutant key -> {check name: killed on every mutant seed}
    mutants: tuple[Entry, ...]
    variants: tuple[Entry, ...]
    findings: tuple[Finding, ...]
    # entry key -> the mistake each of its gradings was diagnosed as ("" for none), in seed order;
    # filled when the settings name the catalogue
    diagnosed: dict = field(default_factory=dict)

    @property
    def sound(self) -> bool:
        return not self.findings

    def misdiagnosed(self) -> list[tuple[str, tuple[str, ...]]]:
        """Entries the diagnosis got wrong on some seed: a mistake not named (nor a SAME_AS twin),
        or a variant named as a mistake; with what each grading was diagnosed as."""
        wrong = []
        for entry in self.mutants + self.variants:
            names = {entry.name, *entry.same_as} if entry in self.mutants else {""}
            found = self.diagnosed.get(entry.key, ())
            if any(name not in names for name in found):
                wrong.append((entry.key, found))
        return wrong

    def discrimination(self, exercise: str) -> dict[str, tuple[int, int]]:
        """Per check: (mutants it kills, mutants only it kills)."""
        result = {}
        mutants = [m for m in self.mutants if m.exercise == exercise]
        for check in self.checks.get(exercise, ()):
            killers = [m for m in mutants if self.kills[m.key].get(check)]
            alone = [m for m in killers if sum(bool(v) for v in self.kills[m.key].values()) == 1]
            result[check] = (len(killers), len(alone))
        return result


def _failing(result: ExerciseResult) -> str:
    problem = [result.problem.message] if result.problem else []  # what failed every check, said once
    return "; ".join(problem + [f"{t.name}: {t.message}" for t in result.tests if t.status != "passed"])[:600]


def validate(root: Path, seeds: tuple[int, ...], mutant_seeds: tuple[int, ...], settings: Settings, jobs: int,
             progress: Callable[[str], None] = lambda text: None) -> Validation:
    mutants = tuple(load_entries(root / "catalogue", Kind.MISTAKE))
    variants = tuple(load_entries(root / "catalogue", Kind.VARIANT))
    solutions = (root / "solutions").resolve()  # graded as a student: a link would be refused
    findings: list[Finding] = []
    checks: dict[str, tuple[str, ...]] = {}
    kills: dict[str, dict[str, bool]] = {m.key: {} for m in mutants}
    diagnosed: dict[str, list[str]] = {e.key: [] for e in mutants + variants}
    with tempfile.TemporaryDirectory(prefix="validate-") as scratch:
        folders = {e.key: write_submission(e, solutions, Path(scratch) / e.key) for e in mutants + variants}
        for seed in seeds:
            progress(f"reference and {len(variants)} variants, seed {seed}")
            students = [("reference", solutions)] + [(v.key, folders[v.key]) for v in variants]
            graded = {r.id: r for r in grade_batch(students, replace(settings, seed=seed), jobs)}
            for exercise in graded["reference"].exercises:
                checks[exercise.name] = tuple(t.name for t in exercise.tests)
                if exercise.score != exercise.max_score or not exercise.tests:
                    findings.append(Finding("flake", f"reference {exercise.name}", seed, _failing(exercise)))
            for variant in variants:
                for exercise in graded[variant.key].exercises:
                    diagnosed[variant.key].append(exercise.diagnosis.mistake if exercise.diagnosis else "")
                    if exercise.score != exercise.max_score:
                        findings.append(Finding("false-rejection", variant.key, seed, _failing(exercise)))
        for seed in mutant_seeds:
            progress(f"{len(mutants)} mutants, seed {seed}")
            graded = {r.id: r for r in grade_batch([(m.key, folders[m.key]) for m in mutants],
                                                   replace(settings, seed=seed), jobs)}
            for mutant in mutants:
                (exercise,) = graded[mutant.key].exercises
                if host_failed(exercise):  # a check the host failed proves nothing, killed or not
                    findings.append(Finding("flake", mutant.key, seed, _failing(exercise)))
                    continue
                diagnosed[mutant.key].append(exercise.diagnosis.mistake if exercise.diagnosis else "")
                statuses = {t.name: t.status != "passed" for t in exercise.tests}
                for check, killed in statuses.items():
                    kills[mutant.key][check] = kills[mutant.key].get(check, True) and killed
                if exercise.score == exercise.max_score:
                    findings.append(Finding("hole", mutant.key, seed, "scored full marks: " + mutant.explanation))
                for check in mutant.killed_by:
                    if check not in statuses:
                        findings.append(Finding("hole", mutant.key, seed, f"names {check}, which the grader does not have"))
                    elif not statuses[check]:
                        findings.append(Finding("hole", mutant.key, seed, f"{check} let it through: {mutant.explanation}"))
    return Validation(tuple(seeds), tuple(checks), checks, kills, mutants, variants, tuple(findings),
                      {k: tuple(v) for k, v in diagnosed.items()})
