"""Shared fixtures for the kit's own tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder import sandbox
from autograder.catalogue import Entry, load_entries, write_submission
from autograder.model import load_course
from autograder.runner import Settings, grade_batch

ROOT = Path(__file__).resolve().parents[1]
GRADERS = ROOT / "graders"
SOLUTIONS = ROOT / "solutions"
COURSE = load_course(GRADERS)
MUTANTS = load_entries(ROOT / "mutants")
VARIANTS = load_entries(ROOT / "tests" / "variants")
TEST_SEED = 20261129


def settings(**overrides) -> Settings:
    values = dict(graders_dir=GRADERS, reference_dir=SOLUTIONS, seed=TEST_SEED, isolation=sandbox.best_isolation())
    values.update(overrides)
    return Settings(**values)


class GradedCatalogue:
    """Grades the reference, the stubs and every catalogue entry of an exercise once, on demand."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.results: dict[str, dict] = {}

    def _only(self, exercise: str, folder: Path) -> Path:
        """A folder holding just this exercise's file from ``folder``."""
        target = self.workdir / f"{folder.name}--{exercise}"
        target.mkdir(exist_ok=True)
        (target / f"{exercise}.py").write_text((folder / f"{exercise}.py").read_text())
        return target

    def for_exercise(self, exercise: str) -> dict:
        if exercise not in self.results:
            students = [(name, self._only(exercise, folder)) for name, folder in
                        (("reference", SOLUTIONS), ("stubs", ROOT / "exercises"))]
            entries: list[Entry] = [e for e in MUTANTS + VARIANTS if e.exercise == exercise]
            for entry in entries:
                kind = "mutant" if entry in MUTANTS else "variant"
                folder = write_submission(entry, SOLUTIONS, self.workdir / f"{kind}--{entry.key}")
                students.append((f"{kind}--{entry.key}", folder))
            graded = grade_batch(students, settings(only_submitted=True), jobs=2)
            self.results[exercise] = {
                r.id: next(e for e in r.exercises if e.name == exercise) for r in graded
            }
        return self.results[exercise]


@pytest.fixture(scope="session")
def catalogue(tmp_path_factory) -> GradedCatalogue:
    return GradedCatalogue(tmp_path_factory.mktemp("catalogue"))
