"""``python grade.py grade SUBMISSIONS --out OUT``: a class graded into a folder of outputs."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from dataclasses import replace
from pathlib import Path

from . import __version__, cli, preflight, sandbox
from .arguments import Exit
from .classout import write_run
from .errors import GradeError
from .files import remove_temporaries
from .fingerprint import grader_keys
from .gradebooks import read_roster, write_canvas
from .incremental import Outcome, grade_incrementally
from .intake import read_submissions
from .model import UNREADABLE, BatchResult, host_failed, load_course
from .output import can_lock, locked
from .progress import ProgressLine
from .render.inert import one_line
from .render.terminal import render_class_summary
from .runner import deliver_batch
from .scratch import scratch
from .store import STORE, ResultStore, Terms
from .submission import pin_folders
from .stored import RunIdentity, check_mergeable, check_writable, index_stored


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


def _known_aliases(out: Path) -> dict[str, str]:
    """The ids of the students stored in ``out`` by their aliases; none where it holds no kit results
    (the folder is checked, and refused, with one sentence further on)."""
    try:
        stored = index_stored(out)
    except GradeError:
        return {}
    return {alias: e.id for e in stored.entries for alias in e.aliases} if stored is not None else {}


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
        intake = read_submissions(submissions, work, tuple(e.name for e in load_course(cli.ROOT / "graders")),
                                  _known_aliases(out))
        students = [(s.id, s.folder) for s in intake.submissions]
        # Each student's folder as the class is read (the whole class: one folder under two names is neither's)
        pins = pin_folders(dict(students), str(intake.root) if intake.root is not None else "")
        if not students:
            hint = (" it looks like one student's folder: grade it with `python grade.py check "
                    f"{submissions}`" if submissions.is_dir() and any(submissions.glob("*.py")) else "")
            raise GradeError(f"{submissions} holds no student submissions;{hint}." if hint else
                             f"{submissions} holds no student submissions.")
        students = _select(students, args.only, submissions)
        unreadable = preflight.prove_readable([folder for _id, folder in students])
        if unreadable:
            sys.stderr.write(f"note: the grader cannot read {preflight.some_paths(unreadable)}; those exercises are withheld, "
                             "not counted (give the grading user read access, for example `chmod -R a+rX` on the "
                             "submissions, and grade again).\n")
        roster = read_roster(args.canvas) if args.canvas else None
        index_stored(out)  # before anything runs: even --fresh never overwrites a folder that is not the kit's
        check_writable(out)
        settings = cli._settings(args, batch=True, allow_unsandboxed=args.allow_unsandboxed)
        # Students' folders are theirs and may change during the run: from the class's folder down,
        # no link is followed to their files (the folder a student's path names is that student's)
        settings = replace(settings, anchor=str(intake.root) if intake.root is not None else "")
        preflight.prove_graders(settings.graders_dir)
        course = load_course(settings.graders_dir)
        described = sandbox.describe(settings.isolation, settings.bwrap)
        run = RunIdentity(settings.isolation, __version__, tuple(e.name for e in course),
                          settings.call_timeout, settings.memory_mb)
        # Held from the stored results' reading to the last write: a second run into the same folder
        # waits here, then grades on the terms (seed, limits) this one stored.
        with locked(out):
            for folder in (out, out / "reports", out / STORE) if can_lock() else ():
                remove_temporaries(folder)  # what a killed run left half-written: no other run writes now
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
                                  (settings.seed, settings.isolation, settings.call_timeout, settings.memory_mb),
                                  settings.catalogue_dir)
            outcome = _grade_with_progress(students, course, graders, settings, store, described, args, pins)
            run_batch = BatchResult(settings.seed, settings.isolation, (), __version__, cli._now(), sandbox=described,
                                    call_timeout=settings.call_timeout, memory_mb=settings.memory_mb)
            written = write_run(out, cli.ROOT / "templates", run_batch, outcome, {s.id: s for s in intake.submissions},
                                stored, previous)
            store.begin(Terms(settings.seed))  # results.json now holds this run: nothing left to replace
            if roster is not None:  # under the lock: the next run removes the temporary files it finds
                write_canvas(out, written.rows, roster, intake.submissions, args.canvas_column, args.canvas)
    shown = {r.id: r for r in written.rows}
    rows = [(sid, f"{shown[sid].score:g}/{shown[sid].max_score:g}", shown[sid].shown_status) for sid in outcome.folders]
    cli.show(render_class_summary(rows, color=sys.stdout.isatty() and "NO_COLOR" not in os.environ)
         + f"Wrote {out / 'results.json'}, {out / 'gradebook.csv'} and {len(written.rows)} reports in "
         f"{out / 'reports'} ({len(outcome.graded_now)} graded now, {len(written.rows) - len(outcome.graded_now)} kept).\n",
         kept=f"everything in {out} was written")
    return _incomplete(outcome, out, written.rows, {s.id for s in intake.submissions})


def _incomplete(outcome, out: Path, rows, submitted: set[str]) -> int:
    """Exit.INCOMPLETE, said in one sentence, when the host failed some checks of the outputs' students."""
    hit, changed = [], []
    for sid in sorted(outcome.graded_now):  # each result read once: a class is never held whole
        result = outcome.result(sid)
        hit += [(sid, e) for e in result.exercises if host_failed(e)]
        if result.status == "error" and outcome.changed(sid):  # a changed file always gives an error row
            changed.append(sid)
    # Only students who still have a submission: another run can grade them (the others only --fresh drops).
    kept = sorted(r.id for r in rows if r.withheld and r.id not in outcome.graded_now and r.id in submitted)
    if kept:  # an earlier run's, kept from results.json by --only: the outputs are no more final than then
        sys.stderr.write(f"note: {len(kept)} student{'s' * (len(kept) != 1)} kept from the earlier run into {out} "
                         f"({', '.join(map(repr, kept[:5]))}{', ...' if len(kept) > 5 else ''}) still "
                         f"{'have' if len(kept) != 1 else 'has'} withheld checks; grade "
                         f"{'them' if len(kept) != 1 else 'that student'} again.\n")
    if changed:  # the store keeps what was graded; the outputs show an error row until a rerun grades the files as they are
        sys.stderr.write(f"note: the files of {len(changed)} student{'s' * (len(changed) != 1)} changed while they were "
                         f"graded ({', '.join(map(repr, changed[:5]))}{', ...' if len(changed) > 5 else ''}); "
                         f"their rows say so, and the next run into {out} shows their files as they are then.\n")
    if not hit:
        return Exit.INCOMPLETE if kept or changed else Exit.DONE
    unread = [(sid, e) for sid, e in hit if _first_failure(e).startswith(UNREADABLE)]
    for group, how in ((unread, "could not be read by the grader (whether the host or the student made them "
                        "unreadable, it cannot tell: look at their modes)"),
                       ([h for h in hit if h not in unread], "could not be graded, through no fault of theirs")):
        if group:
            students = len({sid for sid, _e in group})
            sys.stderr.write(f"note: {len(group)} exercise{'s' * (len(group) != 1)} of {students} student"
                             f"{'s' * (students != 1)} {how} ({group[0][0]}: {cli.gist(_first_failure(group[0][1]))}); "
                             f"their points are withheld, and the next run into {out} grades them again.\n")
    return Exit.INCOMPLETE


def _first_failure(exercise) -> str:
    return next((t.message for t in exercise.tests if t.grader_failed), exercise.message)


def _grade_with_progress(students, course, graders, settings, store, described, args, pins) -> Outcome:
    """Grade what the store does not hold yet, with a progress line on stderr."""
    def grade(chosen, chosen_settings, on_done):
        if args.executor == "dask":
            from .distributed import deliver_on_dask
            return deliver_on_dask(chosen, chosen_settings, args.scheduler, on_done)
        return deliver_batch(chosen, chosen_settings, args.jobs, on_done)

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
                                   frozenset(args.only or ()), start, done, pins)
    finally:
        if progress:
            progress[0].close()
