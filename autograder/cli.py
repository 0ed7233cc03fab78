"""The command line: ``python grade.py [check|grade|validate|release] ...``.

``main(argv)`` returns an exit code and never calls ``sys.exit``; :class:`GradeError` is the one
error it catches, printed as one sentence on stderr.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import io
import os
import secrets
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from . import __version__, interrupts, preflight, sandbox, scriptcache
from .arguments import COMMANDS, DEFAULT_FOLDER, Exit, build_parser
from .hostproof import gist as _gist, proved_isolation
from .options import percent  # noqa: F401  (ci_grade's --pass-mark reads it here)
from .errors import GradeError
from .gradebooks import read_roster, write_canvas
from .intake import Submission, annotate, find_near_misses, read_submissions
from .jails import sweep_jails
from .scratch import scratch, sweep_scratch
from .model import BatchResult, host_failed, load_course
from .classout import write_run
from .output import check_writable_file, locked, within_boundary, write_atomic
from .regrade import diff_runs, load_run
from .fingerprint import grader_keys
from .incremental import Outcome, grade_incrementally
from .progress import ProgressLine
from .store import ResultStore, Terms
from .stored import RunIdentity, check_mergeable, check_writable, index_stored
from .release import build_release
from .mutation import mutation_test
from .render.validation import render_mutation, render_validation
from .validate import validate
from .render.documents import render_markdown
from .render.inert import one_line
from .render.terminal import render_class_summary, render_terminal
from .render.tables import render_json
from .runner import Settings, grade_batch, grade_one, record_scripts
from .startup import fit_process
from .student_view import student_view
from .summary import append_text, passes
from .view import report_view

ROOT = Path(__file__).resolve().parents[1]
def default_seed(command: str | None) -> int:
    """`check`'s seed is the day's (20261130): a student checking again the same day gets the
    drawn cases from the cache (casecache.py) and the next day other ones; elsewhere a fresh one."""
    if command in (None, "check"):
        return int(dt.date.today().strftime("%Y%m%d"))
    return secrets.randbelow(2**31)


def _settings(args: argparse.Namespace, batch: bool, allow_unsandboxed: bool = True) -> Settings:
    """Settings for this run, once the sandbox has been proved on a known-good submission."""
    preflight.prove_room(getattr(args, "jobs", 1) if getattr(args, "executor", "local") == "local" else 1)
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # only root's workers are shut in jails
        sweep_jails()
    sweep_scratch()  # the class copies of runs that were killed
    limits = sandbox.Limits(call_timeout=args.timeout, memory_bytes=args.memory_mb << 20)
    isolation, bwrap_path = proved_isolation(args.isolation, batch, allow_unsandboxed, limits)
    reference, catalogue = ROOT / "solutions", ROOT / "catalogue"
    return Settings(graders_dir=ROOT / "graders", reference_dir=reference if reference.is_dir() else None,
                    seed=args.seed if args.seed is not None else default_seed(args.command),
                    isolation=isolation, call_timeout=args.timeout, memory_mb=args.memory_mb, bwrap=bwrap_path,
                    workers=args.workers, shard_size=getattr(args, "shard_size", Settings.shard_size),
                    catalogue_dir=catalogue if catalogue.is_dir() and reference.is_dir() else None)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def _one_exercise(folder: Path, name: str | None) -> tuple[Path, tuple[str, ...]]:
    """The folder to check and the exercise to keep, from ``check FILE`` or ``--exercise NAME``."""
    if folder.suffix == ".py" and not folder.is_dir():
        folder, name = folder.parent, name or folder.name
    if name is None:
        return folder, ()
    stem = Path(name).name.removesuffix(".py")
    known = [e.name for e in load_course(ROOT / "graders")]
    if stem not in known:
        close = difflib.get_close_matches(stem, known, n=1)
        raise GradeError(f"there is no exercise called {stem!r}; "
                         + (f"did you mean {close[0]!r}?" if close else f"the exercises are {', '.join(known)}."))
    return folder, (stem,)


def run_check(args: argparse.Namespace) -> int:
    given = Path(args.folder)
    if args.folder == DEFAULT_FOLDER and not given.is_dir() and (ROOT / DEFAULT_FOLDER).is_dir():
        given = ROOT / DEFAULT_FOLDER  # `python path/to/grade.py` from another folder
    folder, only = _one_exercise(given, args.exercise)
    if not folder.is_dir():
        raise GradeError(f"{folder} is not a folder; pass the folder that holds your exercise files.")
    for target in (args.markdown, args.json):
        if target is not None:
            check_writable_file(target)
    preflight.prove_readable([folder])
    settings = replace(_settings(args, batch=False), exercises=only)
    settings = replace(settings, scripts=scriptcache.scripts_for(settings, record_scripts))
    student = grade_one(folder.resolve().name or "you", folder, settings)
    names = tuple(e.name for e in load_course(settings.graders_dir))
    student = annotate(student, Submission(student.id, folder, near_misses=find_near_misses(folder, names)))
    if args.student_view:
        student = student_view(student)
    broken = [e for e in student.exercises if e.status == "error" and not e.tests]
    if broken:  # a grader that cannot load is the kit's problem: no report that blames the student
        preflight.prove_graders(settings.graders_dir)  # names the grader that does not load, if one does not
        raise preflight.HostProblem(f"the grader for {broken[0].name} failed: {broken[0].message}")
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    width = max(shutil.get_terminal_size((100, 24)).columns, 40)
    described = sandbox.describe(settings.isolation, settings.bwrap)

    def documents(result):
        batch = BatchResult(settings.seed, settings.isolation, (result,), __version__, _now(), described)
        view = report_view(result, batch.seed, described, batch.created, batch.version)
        return (render_terminal(view, color=color, width=width, verbose=args.verbose),
                render_markdown(view, ROOT / "templates") if args.markdown else "", render_json(batch))

    student, (terminal, markdown, results) = within_boundary(student, documents)
    try:
        if args.markdown:
            append_text(args.markdown, markdown)
        if args.json:
            write_atomic(args.json, results)
    except OSError:  # a full disk, say: the student still sees their report before the error
        show(terminal, kept="")
        raise
    written = " and ".join(str(target) for target in (args.json, args.markdown) if target is not None)
    show(terminal, kept=f"{written} {'were' if args.json and args.markdown else 'was'} written" if written else "")
    failed = [t for e in student.exercises for t in e.tests if t.grader_failed]
    if failed:
        sys.stderr.write(f"note: {len(failed)} check{'s' * (len(failed) != 1)} could not be graded here, through no fault of "
                         f"yours ({_gist(failed[0].message)}); their points are withheld, not lost: run again, and tell "
                         "your instructor if it goes on.\n")
        return Exit.INCOMPLETE
    return Exit.DONE if passes(student, args.pass_mark) else Exit.FOUND


def _select(students: list[tuple[str, Path]], only: list[str] | None, submissions: Path) -> list[tuple[str, Path]]:
    if only is None:
        return students
    found = dict(students)
    for student_id in only:
        if student_id not in found:
            close = difflib.get_close_matches(student_id, found, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise GradeError(f"--only names {student_id!r}, but {submissions} has no student folder of that name{hint}.")
    return [(i, found[i]) for i in dict.fromkeys(only)]


def run_grade(args: argparse.Namespace) -> int:
    submissions, out = args.submissions, args.out
    if not submissions.exists():
        raise GradeError(f"{submissions} is neither a folder of submissions nor a zip of one.")
    if out.exists() and not out.is_dir():
        raise GradeError(f"{out} exists and is not a folder.")
    if args.executor == "dask" and not args.scheduler:
        raise GradeError("--executor dask needs --scheduler tcp://HOST:PORT, the address of the Dask scheduler.")
    if submissions.is_dir() and out.resolve().is_relative_to(submissions.resolve()):
        raise GradeError(f"{out} is inside {submissions}; choose an output folder outside the submissions.")
    with scratch("intake") as work:
        intake = read_submissions(submissions, work, tuple(e.name for e in load_course(ROOT / "graders")))
        students = [(s.id, s.folder) for s in intake.submissions]
        if not students:
            hint = (" it looks like one student's folder: grade it with `python grade.py check "
                    f"{submissions}`" if submissions.is_dir() and any(submissions.glob("*.py")) else "")
            raise GradeError(f"{submissions} holds no student submissions;{hint}." if hint else
                             f"{submissions} holds no student submissions.")
        students = _select(students, args.only, submissions)
        preflight.prove_readable([folder for _id, folder in students])
        roster = read_roster(args.canvas) if args.canvas else None
        index_stored(out)  # before anything runs: even --fresh never overwrites a folder that is not the kit's
        check_writable(out)
        settings = _settings(args, batch=True, allow_unsandboxed=args.allow_unsandboxed)
        preflight.prove_graders(settings.graders_dir)
        course = load_course(settings.graders_dir)
        described = sandbox.describe(settings.isolation, settings.bwrap)
        run = RunIdentity(settings.isolation, __version__, tuple(e.name for e in course),
                          settings.call_timeout, settings.memory_mb)
        # Held from the stored results' reading to the last write: a second run into the same folder
        # waits here, then grades on the terms (seed, limits) this one stored.
        with locked(out):
            stored = previous = index_stored(out)
            store = ResultStore(out)
            terms = store.terms()
            if terms is not None and terms.replacing:
                stored = None  # a --fresh run stopped before its end: its results replace the old ones
            if args.fresh and stored is not None and args.only:
                dropped = len({e.id for e in stored.entries} - set(args.only))
                if dropped:
                    raise GradeError(f"--fresh with --only would drop the {dropped} other students stored in "
                                     f"{out}; leave out --only to regrade them all, or leave out --fresh.")
            if args.fresh:
                stored, terms = None, None
                store.clear()
            if args.seed is None and (stored is not None or terms is not None):
                # one seed for the whole folder: see --seed
                settings = replace(settings, seed=terms.seed if terms is not None else stored.header.seed)
            if stored is not None:
                check_mergeable(stored.header, out, settings.seed, run, stored.exercise_lists)
            store.begin(Terms(settings.seed, replacing=args.fresh or (terms is not None and terms.replacing)))
            kept = len({e.id for e in stored.entries} - {i for i, _ in students}) if stored else 0
            for note in intake.notes:
                sys.stderr.write(f"note: {one_line(note)}\n")
            sys.stderr.write(f"Grading {len(students)} students ({intake.layout}) on {len(course)} exercises · "
                             f"isolation: {described} · seed {settings.seed}"
                             f"{f' · keeping {kept} stored results in {out}' if kept else ''}\n")
            graders = grader_keys(settings.graders_dir, settings.reference_dir, course,
                                  (settings.seed, settings.isolation, settings.call_timeout, settings.memory_mb))
            outcome = _grade_with_progress(students, course, graders, settings, store, described, args)
            run_batch = BatchResult(settings.seed, settings.isolation, (), __version__, _now(), sandbox=described,
                                    call_timeout=settings.call_timeout, memory_mb=settings.memory_mb)
            written = write_run(out, ROOT / "templates", run_batch, outcome, {s.id: s for s in intake.submissions},
                                stored, previous)
            store.begin(Terms(settings.seed))  # results.json now holds this run: nothing left to replace
    if roster is not None:
        write_canvas(out, written.rows, roster, intake.submissions, args.canvas_column, args.canvas)
    shown = {r.id: r for r in written.rows}
    rows = [(sid, f"{shown[sid].score:g}/{shown[sid].max_score:g}", shown[sid].shown_status) for sid in outcome.folders]
    show(render_class_summary(rows, color=sys.stdout.isatty() and "NO_COLOR" not in os.environ)
         + f"Wrote {out / 'results.json'}, {out / 'gradebook.csv'} and {len(written.rows)} reports in "
         f"{out / 'reports'} ({len(outcome.graded_now)} graded now, {len(written.rows) - len(outcome.graded_now)} kept).\n",
         kept=f"everything in {out} was written")
    return _incomplete(outcome, out, written.rows, {s.id for s in intake.submissions})


def show(text: str, kept: str = "") -> None:
    """Print to stdout, or say in one sentence that it cannot take it (a full disk, a closed pipe)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        try:  # what is still buffered would fail again when Python flushes at exit (exit code 120)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        raise GradeError(f"cannot write to standard output ({error.strerror or error})"
                         f"{f'; {kept}' if kept else ''}.") from None


def _incomplete(outcome, out: Path, rows, submitted: set[str]) -> int:
    """Exit.INCOMPLETE, said in one sentence, when the host failed some checks of the outputs' students."""
    hit = [(sid, e) for sid in sorted(outcome.graded_now) for e in outcome.result(sid).exercises if host_failed(e)]
    # Only students who still have a submission: another run can grade them (the others only --fresh drops).
    kept = sorted(r.id for r in rows if r.withheld and r.id not in outcome.graded_now and r.id in submitted)
    if kept:  # an earlier run's, kept from results.json by --only: the outputs are no more final than then
        sys.stderr.write(f"note: {len(kept)} student{'s' * (len(kept) != 1)} kept from the earlier run into {out} "
                         f"({', '.join(map(repr, kept[:5]))}{', ...' if len(kept) > 5 else ''}) still "
                         f"{'have' if len(kept) != 1 else 'has'} withheld checks; grade "
                         f"{'them' if len(kept) != 1 else 'that student'} again.\n")
    if not hit:
        return Exit.INCOMPLETE if kept else Exit.DONE
    first = next((t.message for t in hit[0][1].tests if t.grader_failed), hit[0][1].message)
    students = len({sid for sid, _e in hit})
    sys.stderr.write(f"note: {len(hit)} exercise{'s' * (len(hit) != 1)} of {students} student{'s' * (students != 1)} "
                     f"could not be graded, through no fault of theirs ({hit[0][0]}: {_gist(first)}); their points "
                     f"are withheld, and the next run into {out} grades them again.\n")
    return Exit.INCOMPLETE


def run_validate(args: argparse.Namespace) -> int:
    if not (ROOT / "solutions").is_dir():
        raise GradeError("validate needs the reference solutions, which a student release does not carry.")
    settings = replace(_settings(args, batch=False), only_submitted=True)
    preflight.prove_graders(settings.graders_dir)
    first = settings.seed
    result = validate(ROOT, tuple(first + i for i in range(args.seeds)),
                      tuple(first + i for i in range(args.mutant_seeds)), settings, max(args.jobs, 1),
                      lambda text: sys.stderr.write(f"validating: {text}\n"))
    show(render_validation(result))
    if not args.mutate:
        return Exit.DONE if result.sound else Exit.FOUND
    mutated = mutation_test(ROOT, settings, max(args.jobs, 1), result.seeds[:args.mutant_seeds],
                            lambda text: sys.stderr.write(f"validating: {text}\n"))
    show(render_mutation(mutated))
    return Exit.DONE if result.sound and mutated.sound else Exit.FOUND


def run_release(args: argparse.Namespace) -> int:
    if not (ROOT / "solutions").is_dir():
        raise GradeError("this is already a student release; run release from the full kit.")
    manifest = build_release(ROOT, args.out)
    hidden = sum(len(v) for v in manifest.values())
    sys.stdout.write(f"Wrote the student release to {args.out}: {len(manifest)} exercises, public checks only; "
                     f"{hidden} hidden checks listed by name and points.\n")
    return Exit.DONE


def run_diff(args: argparse.Namespace) -> int:
    show(diff_runs(load_run(args.old), load_run(args.new)))
    return Exit.DONE


def run_gradescope(args: argparse.Namespace) -> int:
    from .gradescope import build_bundle
    if not (ROOT / "solutions").is_dir():
        raise GradeError("a Gradescope bundle needs the reference solutions; run it from the full kit.")
    build_bundle(ROOT, args.out)
    sys.stdout.write(f"Wrote {args.out}: upload it as the autograder of a Gradescope programming assignment.\n")
    return Exit.DONE


def _grade_with_progress(students, course, graders, settings, store, described, args) -> Outcome:
    """Grade what the store does not hold yet, with a progress line on stderr."""
    def grade(chosen, chosen_settings, on_done):
        if args.executor == "dask":
            from .distributed import grade_on_dask
            return grade_on_dask(chosen, chosen_settings, args.scheduler, on_done)
        return grade_batch(chosen, chosen_settings, args.jobs, on_done)

    progress = []

    def start(total):
        if total < len(students):
            sys.stderr.write(f"{len(students) - total} students need no grading: their results are stored in "
                             f"{args.out} under the same submission, graders and settings.\n")
        progress.append(ProgressLine(total, sys.stderr, sys.stderr.isatty()))

    def done(result):
        progress[0].done(f"{one_line(result.id)}: {result.score:g}/{result.max_score:g}")

    try:
        return grade_incrementally(students, course, graders, settings, store, grade, described,
                                   frozenset(args.only or ()), start, done)
    finally:
        if progress:
            progress[0].close()


def _unknown_command(word: str) -> str | None:
    """A one-sentence error for a mistyped command; None when ``word`` may be a folder to check."""
    if word.startswith("-") or os.path.lexists(word):
        return None
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    if close:
        return f"unknown command {word!r}; did you mean {close[0]!r}?"
    return None


def main(argv: list[str] | None = None) -> int:
    fit_process()
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv and argv[0] not in (*COMMANDS, "-h", "--help", "--version"):
        typo = _unknown_command(argv[0])
        if typo:
            sys.stderr.write(f"error: {typo}\n")
            return Exit.BAD_INPUT
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help", "--version"):
        argv = ["check", *argv]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse exits on --help (0) and on bad usage (2)
        return int(exit_.code or 0)
    with interrupts.watched():  # until the last word is said: a second Ctrl-C only adds to the first
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command, and whatever stops it said in one sentence."""
    runners = {"grade": run_grade, "validate": run_validate, "release": run_release, "diff": run_diff,
               "gradescope": run_gradescope}
    try:
        try:
            return runners.get(args.command, run_check)(args)
        except Exception:
            interrupts.check()  # an error that follows a Ctrl-C is the Ctrl-C's doing: say that
            raise
    except GradeError as error:
        sys.stderr.write(f"error: {error}\n")
        return getattr(error, "exit_code", Exit.BAD_INPUT)
    except KeyboardInterrupt as interrupt:
        interrupts.let_go(interrupt)
        sys.stderr.write("error: interrupted; the students graded so far are stored and the next grade run into the "
                         "same folder resumes from them.\n" if args.command == "grade" else
                         "error: interrupted; no results were written.\n")
        return Exit.INTERRUPTED
    except OSError as error:  # a folder that vanished or a disk that filled up mid-run: the host's
        where = f" ({error.filename})" if error.filename else ""
        sys.stderr.write(f"error: {error.strerror or error}{where}; nothing more was written.\n")
        return Exit.BAD_INPUT
