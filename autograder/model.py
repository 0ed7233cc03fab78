"""Grading results as plain, frozen data: what every renderer reads and results.json stores."""

from __future__ import annotations

import enum
import functools
import math
import tomllib
import types
import typing
from dataclasses import MISSING, asdict, dataclass, field, fields, is_dataclass
from pathlib import Path

from .plotdata import Plot


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
           Status.TIMEOUT: ("timed out", "◷"), Status.PENDING: (PENDING_LABEL, "…")}
STATUSES = tuple(s.value for s in Status)
# How every check the grader itself failed on begins (never a student's words: those name their
# function first); such a check is shown but never kept, so the next run grades it again.
GRADER_FAILED = "The grader itself failed"
SANDBOX_FAILED = "The sandbox could not start"  # the host would not start a worker: not kept either
# A file the grader could not read (permissions, an I/O error): the host's to fix or the student's
# doing, the grader cannot tell, so never a 0: shown, not kept, read again next run.
UNREADABLE = "The grader could not read"
HOST_FAILURES = (GRADER_FAILED, SANDBOX_FAILED, UNREADABLE)
# The first keys of every results.json: what marks a folder as the kit's output, and its layout.
RESULTS_MARKER = {"kit": "gradient-kit", "format": 1}


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
class Problem:
    """One cause that fails every check of an exercise (a missing file, an import error), stored once."""

    message: str
    hint: str = ""
    detail: str = ""


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

    @property
    def grader_failed(self) -> bool:
        return self.status == Status.ERROR and self.message.startswith(HOST_FAILURES)


@dataclass(frozen=True)
class Diagnosis:
    """The catalogued mistake an exercise's function behaved exactly like, on every probe.

    Only the catalogue's own words: never an input or an output of a check, nor a count of the
    probes. Which calls became probes is the student's to steer (a reply over the size a probe
    may have is not kept), so a count would tell them how many hidden inputs had a property.
    """

    mistake: str  # the catalogue entry's name
    title: str
    explanation: str
    hint: str
    # Written by the kit until the counts were dropped: read past, so an earlier run's results.json
    # (an out/ graded again with a late export, or `diff` across the change) still reads.
    RETIRED_FIELDS: typing.ClassVar[tuple[str, ...]] = ("matched", "probes")

    @property
    def headline(self) -> str:
        return f"Your function behaves exactly like a known mistake: {self.title}."


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
    problem: Problem | None = None  # the checks it failed carry no copy of its text
    plots: tuple[Plot, ...] = ()
    diagnosis: Diagnosis | None = None
    # Seconds of the submission's time budget its workers took: the host's timing, never shown nor
    # in results.json; the store keeps it, so a partial regrade is known to fit the budget (incremental.py).
    budget_spent: float = field(default=0.0, compare=False)
    # The digest of the file its worker ran (submission.Entry): the store keys the result by it, so a
    # file changed after the run was planned is not kept under the old bytes. Never shown either.
    graded_entry: str = field(default="", compare=False)


def host_failed(exercise: ExerciseResult) -> bool:
    """Whether the grader or the host decided part of this exercise (a check the grader or the
    sandbox failed on, a grader that crashed): never the student's score, never kept."""
    if exercise.tests:
        return any(t.grader_failed for t in exercise.tests)
    return exercise.status == "error" and exercise.message.startswith(HOST_FAILURES)


@dataclass(frozen=True)
class StudentResult:
    id: str
    score: float
    max_score: float
    status: str  # graded | empty | error
    exercises: tuple[ExerciseResult, ...] = ()
    pending_points: float = 0.0
    message: str = ""
    graded: str = ""  # when this student was graded (UTC); a merged folder holds several runs
    sandbox: str = ""  # the isolation that ran this student's code, as the report shows it
    notices: tuple[str, ...] = ()  # what intake found: a nested folder, a near-miss file name, a late mark
    # Other names the student goes by (an LMS's user id, email, SIS id): kept with the result, so a
    # roster still matches a student kept from an earlier run (whose export is not read again)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class BatchResult:
    seed: int
    isolation: str
    students: tuple[StudentResult, ...] = field(default_factory=tuple)
    version: str = ""
    created: str = ""
    sandbox: str = ""  # which isolation ran the workers, as reports show it: "bubblewrap 0.11.0 (bundled)"
    call_timeout: float = 0.0  # the limits every student of the batch was graded under (0: not recorded)
    memory_mb: int = 0


def exercise_result(name: str, title: str, tests: tuple[CheckResult, ...], status: str = "graded",
                    message: str = "", problem: Problem | None = None, plots: tuple[Plot, ...] = (),
                    diagnosis: Diagnosis | None = None) -> ExerciseResult:
    graded = [t for t in tests if t.status != "pending"]
    return ExerciseResult(
        name=name, title=title, status=status, tests=tests, message=message, problem=problem, plots=plots,
        diagnosis=diagnosis,
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


SPENT_FIELD = "budget_spent"
ENTRY_FIELD = "graded_entry"
_STORE_ONLY = (SPENT_FIELD, ENTRY_FIELD)


def to_dict(result: BatchResult | StudentResult, with_spent: bool = False) -> dict:
    """The result as written to results.json; ``with_spent``: as carried to the store, with each
    exercise's budget spent and the digest of the file graded."""
    if with_spent:
        return asdict(result)
    return asdict(result, dict_factory=_without_store_fields)


def _without_store_fields(items: list[tuple[str, object]]) -> dict:
    return {name: value for name, value in items if name not in _STORE_ONLY}


class ResultsFormatError(ValueError):
    """Stored results that are not what this kit writes: says where, in a few words."""


def batch_from_dict(data: object) -> BatchResult:
    """Read results.json back, strictly: every field present, of its type, no field unknown.

    Stored results are merged with new ones and rendered again, so a hand-edited or damaged
    file must be refused here, not half-trusted until a renderer trips over it.
    """
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in RESULTS_MARKER}
    batch = _build(BatchResult, data, "")
    ids = [s.id for s in batch.students]
    if len(set(ids)) != len(ids):
        raise ResultsFormatError("a student id appears twice")
    return batch


def student_from_dict(data: object, where: str) -> StudentResult:
    """One stored student result, read as strictly as results.json is; ``where`` names it in an error."""
    return _build(StudentResult, data, where)


def exercise_from_dict(data: object) -> ExerciseResult:
    """One stored exercise result, read as strictly as results.json is."""
    return _build(ExerciseResult, data, "")


def _build(cls: type, data: object, where: str):
    if not isinstance(data, dict):
        raise ResultsFormatError(f"{where or 'the file'} is not a JSON object")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known) - set(getattr(cls, "RETIRED_FIELDS", ())))
    if unknown:
        raise ResultsFormatError(f"{where or 'the file'} has an unknown field {unknown[0]!r}")
    hints = _hints(cls)
    values = {}
    for name, spec in known.items():
        if name in data:
            values[name] = _value(hints[name], data[name], f"{where}.{name}" if where else name)
        elif spec.default is MISSING and spec.default_factory is MISSING:
            raise ResultsFormatError(f"{where or 'the file'} lacks the field {name!r}")
    return cls(**values)


@functools.cache  # a pure function of the class; resolving the hints is most of reading a large results.json
def _hints(cls: type) -> dict[str, object]:
    return typing.get_type_hints(cls)


def _value(hint: object, value: object, where: str):
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
        return _value(hint, value, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise ResultsFormatError(f"{where} is not a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], item, f"{where}[{n}]") for n, item in enumerate(value))
        if len(value) != len(args):
            raise ResultsFormatError(f"{where} does not hold {len(args)} values")
        return tuple(_value(hint, item, f"{where}[{n}]") for n, (hint, item) in enumerate(zip(args, value)))
    if is_dataclass(hint):
        return _build(hint, value, where)
    if hint is bool and isinstance(value, bool):
        return value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise ResultsFormatError(f"{where} is not one of {', '.join(repr(m.value) for m in hint)}") from None
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint is str and isinstance(value, str):
        return value
    kind = {float: "a finite number", int: "an integer", str: "text", bool: "true or false"}.get(hint, hint)
    raise ResultsFormatError(f"{where} is not {kind}")
