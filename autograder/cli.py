"""The command line: ``python grade.py [check|grade|validate|release] ...``.

``main(argv)`` returns an exit code and never calls ``sys.exit``; :class:`GradeError` is the one
error it catches, printed as one sentence on stderr.
"""

from __future__ import annotations

import argparse
import enum
import datetime as dt
import itertools
import os
import secrets
import sys
from dataclasses import replace
from pathlib import Path

from . import __version__, sandbox
from .errors import GradeError
from .model import BatchResult, load_course
from .output import write_atomic, write_batch
from .release import build_release
from .mutation import mutation_test
from .render.validation import render_mutation, render_validation
from .validate import validate
from .render.documents import render_markdown
from .render.terminal import render_class_summary, render_terminal
from .render.tables import render_json
from .runner import Settings, grade_batch, grade_one
from .view import report_view

ROOT = Path(__file__).resolve().parents[1]


class Exit(enum.IntEnum):
    """The command line's exit codes; EXIT_CODES below says the same in words."""
    DONE = 0  # finished (check: every graded check passed)
    FOUND = 1  # check: a check did not pass; validate: a hole, a flake or a false rejection
    BAD_INPUT = 2  # bad usage or input, one sentence on stderr
    REFUSED = 3  # grade will not run student code without bubblewrap

EXIT_CODES = """\
exit codes:
  0  finished (for check: every graded check passed)
  1  check: at least one check did not pass; validate: a hole, a flake or a false rejection
  2  bad usage or input: a missing folder, an output folder inside the submissions
  3  refused: grade will not run student code without bubblewrap unless --allow-unsandboxed
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grade.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Autograder for the deep-network gradient exercises. With no command, "
                    "grades your own files in exercises/ (same as `check exercises/`).",
        epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"gradient kit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--seed", type=int, default=None,
                         help="seed for the random inputs of hidden checks (default: a fresh one, recorded in the report)")
        sub.add_argument("--timeout", type=float, default=sandbox.Limits.call_timeout,
                         help="seconds one call of a student function may take (default: %(default)s)")
        sub.add_argument("--memory-mb", type=int, default=sandbox.Limits.memory_bytes >> 20,
                         help="address-space limit of a worker in MiB (default: %(default)s)")
        sub.add_argument("--isolation", choices=("auto", *sandbox.ISOLATIONS), default="auto",
                         help="how student code is isolated (default: bubblewrap where it works)")

    check = commands.add_parser("check", help="grade one folder of exercise files and print the report",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    check.add_argument("folder", nargs="?", default="exercises", help="folder with the exercise files (default: exercises)")
    check.add_argument("--verbose", "-v", action="store_true", help="list passed checks too")
    check.add_argument("--markdown", type=Path, help="also write the report as Markdown to this file")
    check.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    common(check)

    grade = commands.add_parser("grade", help="grade a class: one folder per student",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    grade.add_argument("submissions", type=Path, help="folder holding one folder per student (named by student id)")
    grade.add_argument("--out", type=Path, required=True, help="where results.json, gradebook.csv and reports/ go")
    grade.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="students graded at once (default: %(default)s)")
    grade.add_argument("--allow-unsandboxed", action="store_true",
                       help="grade even where bubblewrap is unavailable (process limits only; see README)")
    common(grade)

    validate = commands.add_parser("validate", help="prove the graders: reference and variants pass, mutants fail",
                                   formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    validate.add_argument("--seeds", type=int, default=10, help="seeds the reference and variants must pass on (default: %(default)s)")
    validate.add_argument("--mutant-seeds", type=int, default=3, help="seeds every mutant must be caught on (default: %(default)s)")
    validate.add_argument("--mutate", action="store_true",
                          help="also grade every mutant mutmut's operators make of solutions/ (needs the 'mutate' extra)")
    validate.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once (default: %(default)s)")
    common(validate)

    release = commands.add_parser("release", help="write the student distribution: no solutions, no hidden checks",
                                  formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    release.add_argument("out", type=Path, help="a new or empty folder outside the kit")
    return parser


def _isolation(requested: str, batch: bool, allow_unsandboxed: bool) -> str:
    if requested == "bubblewrap" and not sandbox.bubblewrap_works():
        raise GradeError("bubblewrap was requested but cannot start here (is the bubblewrap package installed?).")
    isolation = sandbox.best_isolation() if requested == "auto" else requested
    if batch and isolation != "bubblewrap" and not allow_unsandboxed:
        raise SandboxRefused("bubblewrap is not available, so student code would run without namespace "
                             "isolation; install bubblewrap or pass --allow-unsandboxed to accept process limits only.")
    return isolation


class SandboxRefused(GradeError):
    exit_code = Exit.REFUSED


def _settings(args: argparse.Namespace, isolation: str) -> Settings:
    reference = ROOT / "solutions"
    return Settings(graders_dir=ROOT / "graders", reference_dir=reference if reference.is_dir() else None,
                    seed=args.seed if args.seed is not None else secrets.randbelow(2**31),
                    isolation=isolation, call_timeout=args.timeout, memory_mb=args.memory_mb)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def run_check(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise GradeError(f"{folder} is not a folder; pass the folder that holds your exercise files.")
    settings = _settings(args, _isolation(args.isolation, batch=False, allow_unsandboxed=True))
    student = grade_one(folder.resolve().name or "you", folder, settings)
    batch = BatchResult(settings.seed, settings.isolation, (student,), __version__, _now())
    view = report_view(student, batch.seed, batch.isolation, batch.created, batch.version)
    sys.stdout.write(render_terminal(view, color=sys.stdout.isatty() and "NO_COLOR" not in os.environ,
                                     verbose=args.verbose))
    if args.markdown:
        write_atomic(args.markdown, render_markdown(view, ROOT / "templates"))
    if args.json:
        write_atomic(args.json, render_json(batch))
    graded = [t for e in student.exercises for t in e.tests if t.status != "pending"]
    return Exit.DONE if graded and all(t.status == "passed" for t in graded) else Exit.FOUND


def _students(submissions: Path) -> list[tuple[str, Path]]:
    entries = sorted(p for p in submissions.iterdir() if not p.name.startswith("."))
    return [(p.name, p) for p in entries if p.is_dir() or p.is_symlink()]


def run_grade(args: argparse.Namespace) -> int:
    submissions, out = args.submissions, args.out
    if not submissions.is_dir():
        raise GradeError(f"{submissions} is not a folder of student folders.")
    if out.exists() and not out.is_dir():
        raise GradeError(f"{out} exists and is not a folder.")
    if out.resolve().is_relative_to(submissions.resolve()):
        raise GradeError(f"{out} is inside {submissions}; choose an output folder outside the submissions.")
    students = _students(submissions)
    if not students:
        raise GradeError(f"{submissions} holds no student folders.")
    if args.jobs < 1:
        raise GradeError("--jobs must be at least 1.")
    settings = _settings(args, _isolation(args.isolation, batch=True, allow_unsandboxed=args.allow_unsandboxed))
    course = load_course(settings.graders_dir)
    sys.stderr.write(f"Grading {len(students)} students on {len(course)} exercises · isolation: "
                     f"{settings.isolation} · seed {settings.seed}\n")
    results = _grade_with_progress(students, settings, args.jobs)
    batch = BatchResult(settings.seed, settings.isolation, tuple(results), __version__, _now())
    write_batch(batch, out, ROOT / "templates")
    rows = [(s.id, f"{s.score:g}/{s.max_score:g}", s.status) for s in batch.students]
    sys.stdout.write(render_class_summary(rows, color=sys.stdout.isatty() and "NO_COLOR" not in os.environ))
    sys.stdout.write(f"Wrote {out / 'results.json'}, {out / 'gradebook.csv'} and {len(rows)} reports in {out / 'reports'}.\n")
    return Exit.DONE


def run_validate(args: argparse.Namespace) -> int:
    if not (ROOT / "solutions").is_dir():
        raise GradeError("validate needs the reference solutions, which a student release does not carry.")
    if args.seeds < 1 or args.mutant_seeds < 1:
        raise GradeError("--seeds and --mutant-seeds must be at least 1.")
    settings = replace(_settings(args, _isolation(args.isolation, batch=False, allow_unsandboxed=True)),
                       only_submitted=True)
    first = settings.seed
    result = validate(ROOT, tuple(first + i for i in range(args.seeds)),
                      tuple(first + i for i in range(args.mutant_seeds)), settings, max(args.jobs, 1),
                      lambda text: sys.stderr.write(f"validating: {text}\n"))
    sys.stdout.write(render_validation(result))
    if not args.mutate:
        return Exit.DONE if result.sound else Exit.FOUND
    mutated = mutation_test(ROOT, settings, max(args.jobs, 1), result.seeds[:args.mutant_seeds],
                            lambda text: sys.stderr.write(f"validating: {text}\n"))
    sys.stdout.write(render_mutation(mutated))
    return Exit.DONE if result.sound and mutated.sound else Exit.FOUND


def run_release(args: argparse.Namespace) -> int:
    if not (ROOT / "solutions").is_dir():
        raise GradeError("this is already a student release; run release from the full kit.")
    manifest = build_release(ROOT, args.out)
    hidden = sum(len(v) for v in manifest.values())
    sys.stdout.write(f"Wrote the student release to {args.out}: {len(manifest)} exercises, public checks only; "
                     f"{hidden} hidden checks listed by name and points.\n")
    return Exit.DONE


def _grade_with_progress(students, settings, jobs):
    if not sys.stderr.isatty():
        finished = itertools.count(1)

        def report(result):
            sys.stderr.write(f"[{next(finished)}/{len(students)}] {result.id}: {result.score:g}/{result.max_score:g}\n")
        return grade_batch(students, settings, jobs, report)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), transient=True) as progress:
        task = progress.add_task("", total=len(students))
        return grade_batch(students, settings, jobs,
                           lambda result: progress.update(task, advance=1, description=result.id))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or argv[0] not in ("check", "grade", "validate", "release", "-h", "--help", "--version"):
        argv = ["check", *argv]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse exits on --help (0) and on bad usage (2)
        return int(exit_.code or Exit.DONE)
    try:
        runners = {"grade": run_grade, "validate": run_validate, "release": run_release}
        return runners.get(args.command, run_check)(args)
    except GradeError as error:
        sys.stderr.write(f"error: {error}\n")
        return getattr(error, "exit_code", Exit.BAD_INPUT)
