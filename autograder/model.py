"""Grading results as plain, frozen data: what every renderer reads and results.json stores."""

from __future__ import annotations

import enum
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

class Status(str, enum.Enum):
    """A check's status: the one vocabulary results, views and renderers share.

    A ``str`` subclass, so results.json and templates carry the plain value ("passed").
    """

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    PENDING = "pending"  # a hidden check, not run because the reference is absent

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return _LABELS[self][0]

    @property
    def icon(self) -> str:
        return _LABELS[self][1]


PENDING_LABEL = "hidden: graded after submission"
_LABELS = {Status.PASSED: ("passed", "✓"), Status.FAILED: ("failed", "✗"), Status.ERROR: ("error", "!"),
           Status.TIMEOUT: ("timed out", "⏱"), Status.PENDING: (PENDING_LABEL, "…")}
STATUSES = tuple(s.value for s in Status)


@dataclass(frozen=True)
class Exercise:
    name: str
    title: str


def load_course(graders_dir: Path) -> tuple[Exercise, ...]:
    """The exercises listed in ``graders/course.toml``, in order."""
    with open(graders_dir / "course.toml", "rb") as handle:
        data = tomllib.load(handle)
    return tuple(Exercise(e["name"], e.get("title", e["name"])) for e in data.get("exercise", []))


@dataclass(frozen=True)
class Output:
    """What the student's code printed during one check: head and tail, and how much was cut."""

    head: str
    tail: str = ""
    cut: int = 0


@dataclass(frozen=True)
class CheckResult:
    name: str
    description: str
    score: float
    max_score: float
    status: Status
    message: str = ""
    hint: str = ""
    visibility: str = "public"
    detail: str = ""
    output: Output | None = None


@dataclass(frozen=True)
class ExerciseResult:
    name: str
    title: str
    score: float
    max_score: float
    status: str  # graded | missing | error
    tests: tuple[CheckResult, ...] = ()
    pending_points: float = 0.0
    message: str = ""


@dataclass(frozen=True)
class StudentResult:
    id: str
    score: float
    max_score: float
    status: str  # graded | empty | error
    exercises: tuple[ExerciseResult, ...] = ()
    pending_points: float = 0.0
    message: str = ""


@dataclass(frozen=True)
class BatchResult:
    seed: int
    isolation: str
    students: tuple[StudentResult, ...] = field(default_factory=tuple)
    version: str = ""
    created: str = ""


def exercise_result(name: str, title: str, tests: tuple[CheckResult, ...], status: str = "graded",
                    message: str = "") -> ExerciseResult:
    graded = [t for t in tests if t.status != "pending"]
    return ExerciseResult(
        name=name, title=title, status=status, tests=tests, message=message,
        score=sum(t.score for t in graded), max_score=sum(t.max_score for t in graded),
        pending_points=sum(t.max_score for t in tests if t.status == "pending"),
    )


def student_result(student_id: str, exercises: tuple[ExerciseResult, ...], status: str = "graded",
                   message: str = "") -> StudentResult:
    return StudentResult(
        id=student_id, status=status, exercises=exercises, message=message,
        score=sum(e.score for e in exercises), max_score=sum(e.max_score for e in exercises),
        pending_points=sum(e.pending_points for e in exercises),
    )


def to_dict(result: BatchResult | StudentResult) -> dict:
    return asdict(result)


def _check_from(data: dict) -> CheckResult:
    output = data.get("output")
    return CheckResult(**{**data, "output": Output(**output) if output else None})


def batch_from_dict(data: dict) -> BatchResult:
    """Read results.json back (the renderers' input when re-rendering an earlier run)."""
    students = []
    for s in data["students"]:
        exercises = tuple(
            ExerciseResult(**{**e, "tests": tuple(_check_from(t) for t in e["tests"])}) for e in s["exercises"])
        students.append(StudentResult(**{**s, "exercises": exercises}))
    return BatchResult(**{**data, "students": tuple(students)})
