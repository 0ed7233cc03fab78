"""``python grade.py check``: one student's folder, graded and shown in the terminal.

A check whose every verdict is already known (the student's functions answer the day's scripts
exactly as checks that passed were answered, :mod:`autograder.quickcheck`) needs no pytest, no
graders' import and no sandbox proof: only when that does not hold is the host proved and the
folder graded the full way (:func:`autograder.runner.grade_one`).
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import sys
import threading
from dataclasses import replace
from pathlib import Path

from . import __version__, cli, preflight, quickcheck, sandbox, scriptcache
from .arguments import DEFAULT_FOLDER, Exit
from .errors import GradeError
from .model import BatchResult, StudentResult, load_course, student_result
from .files import check_writable_file, within_boundary, write_atomic
from .warmstart import chosen_isolation
from .zygote import Zygote


def _one_exercise(folder: Path, name: str | None) -> tuple[Path, tuple[str, ...]]:
    """The folder to check and the exercise to keep, from ``check FILE`` or ``--exercise NAME``."""
    if folder.suffix == ".py" and not folder.is_dir():
        folder, name = folder.parent, name or folder.name
    if name is None:
        return folder, ()
    stem = Path(name).name.removesuffix(".py")
    known = [e.name for e in load_course(cli.ROOT / "graders")]
    if stem not in known:
        close = difflib.get_close_matches(stem, known, n=1)
        raise GradeError(f"there is no exercise called {stem!r}; "
                         + (f"did you mean {close[0]!r}?" if close else f"the exercises are {', '.join(known)}."))
    return folder, (stem,)


def run_check(args: argparse.Namespace, warm: tuple[Zygote, ...] = ()) -> int:
    """``warm``: the sandboxes started for the quick way (warmstart.py), if any."""
    given = Path(args.folder)
    if args.folder == DEFAULT_FOLDER and not given.is_dir() and (cli.ROOT / DEFAULT_FOLDER).is_dir():
        given = cli.ROOT / DEFAULT_FOLDER  # `python path/to/grade.py` from another folder
    folder, only = _one_exercise(given, args.exercise)
    if not folder.is_dir():
        raise GradeError(f"{folder} is not a folder; pass the folder that holds your exercise files.")
    # Your own folder, reached through links or not: every read below opens it without following
    # one (submission.look), as grading a class does.
    folder = Path(os.path.realpath(folder))
    for target in (args.markdown, args.json):
        if target is not None:
            check_writable_file(target)
    preflight.prove_readable([folder])
    student_id = folder.resolve().name or "you"
    settings, known = _known(args, student_id, folder, only, warm)
    if known is not None and not known.unknown:
        student = known.result(student_id, folder, settings)
    else:
        for zygote in warm:
            zygote.close()  # the full way starts its own
        # The exercises answered are not graded again, and their answers proved the sandbox they came
        # from: the full way grades the rest in it, without a proof of its own.
        answered = known is not None and bool(known.answered)
        quick = settings
        settings, student = _graded_fully(args, student_id, folder, known.unknown if answered else only,
                                          room_proved=settings is not None,
                                          proved=(settings.isolation, settings.bwrap) if answered else None,
                                          kept=tuple(known.answered) if answered else (),
                                          spent=known.spent if answered else 0.0)
        if answered:
            student = _merged(known.result(student_id, folder, quick), student, load_course(settings.graders_dir))
    from .intake import Submission, annotate, find_near_misses
    from .render.tables import render_json
    from .render.terminal import render_terminal
    from .student_view import student_view
    from .summary import append_text, passes
    from .view import report_view

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
        from .render.documents import render_markdown  # jinja2: only for a Markdown report
        batch = BatchResult(settings.seed, settings.isolation, (result,), __version__, cli._now(), described)
        view = report_view(result, batch.seed, described, batch.created, batch.version)
        return (render_terminal(view, color=color, width=width, verbose=args.verbose),
                render_markdown(view, cli.ROOT / "templates") if args.markdown else "", render_json(batch))

    student, (terminal, markdown, results) = within_boundary(student, documents)
    try:
        if args.markdown:
            append_text(args.markdown, markdown)
        if args.json:
            write_atomic(args.json, results)
    except OSError:  # a full disk, say: the student still sees their report before the error
        cli.show(terminal, kept="")
        raise
    written = " and ".join(str(target) for target in (args.json, args.markdown) if target is not None)
    cli.show(terminal, kept=f"{written} {'were' if args.json and args.markdown else 'was'} written" if written else "")
    failed = [t for e in student.exercises for t in e.tests if t.grader_failed]
    if failed:
        sys.stderr.write(f"note: {len(failed)} check{'s' * (len(failed) != 1)} could not be graded here, through no fault of "
                         f"yours ({cli.gist(failed[0].message)}); their points are withheld, not lost: run again, and tell "
                         "your instructor if it goes on.\n")
        return Exit.INCOMPLETE
    return Exit.DONE if passes(student, args.pass_mark) else Exit.FOUND


def _graded_fully(args: argparse.Namespace, student_id: str, folder: Path, exercises: tuple[str, ...],
                  room_proved: bool, proved: tuple[str, str] | None, kept: tuple[str, ...], spent: float = 0.0):
    """(settings, result) of ``exercises`` (all where empty) graded in pytest, the host proved first
    unless ``proved`` names the isolation and bwrap already seen answering; ``kept``: the exercises
    whose scripts a release keeps from its earlier run (the others are recorded now); ``spent``: the
    seconds of the submission's budget the quick way took on the exercises it answered."""
    from .runner import grade_one, grade_recording, record_scripts  # pytest and the graders: only now
    # Where the quick way was tried, the room was proved before its sandboxes ran; proved again
    # now, it would count the tasks of those just killed, which the kernel frees a moment later.
    settings = replace(cli._settings(args, batch=False, room_proved=room_proved, proved=proved), exercises=exercises,
                       budget_spent=spent)
    if settings.use_scripts and settings.reference_dir is None and (kept or not exercises):
        # A release has no reference to record: this run's own calls make the next check quick.
        return settings, scriptcache.keep_own(settings, lambda into: grade_recording(student_id, folder, settings, into),
                                              kept)
    if settings.use_scripts:
        settings = replace(settings, scripts=scriptcache.scripts_for(settings, record_scripts))
    return settings, grade_one(student_id, folder, settings)


def _merged(answered: StudentResult, graded: StudentResult, course) -> StudentResult:
    """One result from the exercises the quick way answered and those the full way graded, in the
    course's order; the full way's status and message stand (a failure of the grader, say), all but
    its "empty", which speaks of the exercises left to it alone: the folder is empty only where the
    answered ones are too, as one run of every exercise would say."""
    by_name = {e.name: e for e in (*answered.exercises, *graded.exercises)}
    said = answered if graded.status == "empty" else graded
    return student_result(graded.id, tuple(by_name[e.name] for e in course if e.name in by_name),
                          said.status, said.message)


def _load_reporting() -> None:
    """The modules that show the result, imported while the workers answer: the grader mostly
    waits for them then, so these imports cost no wall time of their own (an error here is
    raised again where they are imported for use)."""
    try:
        from . import intake, student_view, summary, view  # noqa: F401
        from .render import tables, terminal  # noqa: F401
    except BaseException:  # noqa: BLE001 - said where they are imported for use (a Ctrl-C reaches only the main thread)
        pass


def _known(args: argparse.Namespace, student_id: str, folder: Path, only: tuple[str, ...], warm: tuple[Zygote, ...]):
    """(settings, what the quick way answered: quickcheck.Known, or None where it could not be
    taken); (None, None) where it is not tried.

    The sandbox it runs in is the one the full way would prove first; the room and the leftovers
    of killed runs are seen to as the full way sees to them."""
    from .jails import sweep_jails
    from .scratch import sweep_scratch

    chosen = chosen_isolation(args)
    if chosen is None:
        return None, None
    if not warm:  # else proved before they started (warmstart.py), and their tasks count now
        preflight.prove_room(1)
    loading = threading.Thread(target=_load_reporting, daemon=True)  # after the room is proved: a task too
    loading.start()
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        sweep_jails()
    sweep_scratch()
    settings = replace(cli.settings_for(args, *chosen), exercises=only)
    try:
        return settings, quickcheck.grade_known(student_id, folder, settings, warm)
    finally:
        loading.join()
