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
import sys
from dataclasses import replace
from pathlib import Path

from . import interrupts
from .arguments import COMMANDS, Exit, build_parser
from .errors import GradeError
from .options import percent  # noqa: F401  (ci_grade's --pass-mark reads it here)
from .settings import Settings
from .startup import fit_process

ROOT = Path(__file__).resolve().parents[1]


def default_seed(command: str | None) -> int:
    """`check`'s seed is the day's (20261130): a student checking again the same day gets the
    drawn cases from the cache (casecache.py) and the next day other ones; elsewhere a fresh one."""
    if command in (None, "check"):
        return int(dt.date.today().strftime("%Y%m%d"))
    return secrets.randbelow(2**31)


def _settings(args: argparse.Namespace, batch: bool, allow_unsandboxed: bool = True,
              room_proved: bool = False, proved: tuple[str, str] | None = None) -> Settings:
    """Settings for this run, once the sandbox has been proved on a known-good submission
    (``room_proved``: the room to start processes was proved already, before any sandbox ran;
    ``proved``: the isolation and bwrap in which this run has already seen correct answers)."""
    from . import preflight, sandbox
    from .hostproof import proved_isolation
    from .jails import sweep_jails
    from .scratch import sweep_scratch

    if not room_proved:
        preflight.prove_room(getattr(args, "jobs", 1) if getattr(args, "executor", "local") == "local" else 1)
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # only root's workers are shut in jails
        sweep_jails()
    sweep_scratch()  # the class copies of runs that were killed
    if proved is not None:
        return settings_for(args, *proved)
    limits = sandbox.Limits(call_timeout=args.timeout, memory_bytes=args.memory_mb << 20)
    isolation, bwrap_path = proved_isolation(args.isolation, batch, allow_unsandboxed, limits)
    return settings_for(args, isolation, bwrap_path)


def settings_for(args: argparse.Namespace, isolation: str, bwrap_path: str) -> Settings:
    """The settings the command line asks for, in the isolation given."""
    # Resolved: a kit may keep its solutions elsewhere behind a link, and files are read without
    # following a link in their folder's name (submission.look)
    reference, catalogue = (ROOT / "solutions").resolve(), (ROOT / "catalogue").resolve()
    return Settings(graders_dir=ROOT / "graders", reference_dir=reference if reference.is_dir() else None,
                    seed=args.seed if args.seed is not None else default_seed(args.command),
                    isolation=isolation, call_timeout=args.timeout, memory_mb=args.memory_mb, bwrap=bwrap_path,
                    workers=args.workers, shard_size=getattr(args, "shard_size", Settings.shard_size),
                    catalogue_dir=catalogue if catalogue.is_dir() and reference.is_dir() else None,
                    use_scripts=not getattr(args, "no_scripts", False))


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def gist(message: str) -> str:
    from .hostproof import gist as said
    return said(message)


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




def run_validate(args: argparse.Namespace) -> int:
    from . import preflight
    from .mutation import mutation_test
    from .render.validation import render_mutation, render_validation
    from .validate import validate

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
    from .release import build_release

    if not (ROOT / "solutions").is_dir():
        raise GradeError("this is already a student release; run release from the full kit.")
    manifest = build_release(ROOT, args.out)
    hidden = sum(len(v) for v in manifest.values())
    sys.stdout.write(f"Wrote the student release to {args.out}: {len(manifest)} exercises, public checks only; "
                     f"{hidden} hidden checks listed by name and points.\n")
    return Exit.DONE


def run_diff(args: argparse.Namespace) -> int:
    from .regrade import diff_runs, load_run

    show(diff_runs(load_run(args.old), load_run(args.new)))
    return Exit.DONE


def run_gradescope(args: argparse.Namespace) -> int:
    from .gradescope import build_bundle
    if not (ROOT / "solutions").is_dir():
        raise GradeError("a Gradescope bundle needs the reference solutions; run it from the full kit.")
    build_bundle(ROOT, args.out)
    sys.stdout.write(f"Wrote {args.out}: upload it as the autograder of a Gradescope programming assignment.\n")
    return Exit.DONE




def _run_check(args: argparse.Namespace) -> int:
    from .warmstart import start_early
    warm = start_early(args)  # starts while the rest of the kit is imported
    try:
        from .checkcmd import run_check
        return run_check(args, warm)
    finally:
        for zygote in warm:
            zygote.close()


def _run_grade(args: argparse.Namespace) -> int:
    from .gradecmd import run_grade
    return run_grade(args)


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
    runners = {"grade": _run_grade, "validate": run_validate, "release": run_release, "diff": run_diff,
               "gradescope": run_gradescope}
    try:
        try:
            return runners.get(args.command, _run_check)(args)
        except Exception:
            interrupts.check()  # an error that follows a Ctrl-C is the Ctrl-C's doing: say that
            raise
    except GradeError as error:
        sys.stderr.write(f"error: {error}\n")
        return getattr(error, "exit_code", Exit.BAD_INPUT)
    except KeyboardInterrupt as interrupt:
        interrupts.let_go(interrupt)
        # What the Ctrl-C cut short (a pytest session's capture, suspended) may complain when it is
        # collected at exit, after the sentence below: the student's run was stopped, nothing more to say.
        sys.unraisablehook = lambda unraisable: None
        sys.stderr.write("error: interrupted; the students graded so far are stored and the next grade run into the "
                         "same folder resumes from them.\n" if args.command == "grade" else
                         "error: interrupted; no results were written.\n")
        return Exit.INTERRUPTED
    except OSError as error:  # a folder that vanished or a disk that filled up mid-run: the host's
        where = f" ({error.filename})" if error.filename else ""
        sys.stderr.write(f"error: {error.strerror or error}{where}; nothing more was written.\n")
        return Exit.BAD_INPUT
