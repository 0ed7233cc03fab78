"""The command line's words: its commands, its exit codes and its parser (no command runs here)."""

from __future__ import annotations

import argparse
import enum
import os
from pathlib import Path

from . import __version__, sandbox
from .options import at_least_one, call_seconds, memory_mb, percent, seed
from .settings import Settings
from .zygote import WORKERS

COMMANDS = ("check", "grade", "validate", "release", "diff", "gradescope")


class Exit(enum.IntEnum):
    """The command line's exit codes; EXIT_CODES below says the same in words."""
    DONE = 0  # finished (check: every graded check passed, or the pass mark was reached)
    FOUND = 1  # check: a check did not pass; validate: a hole, a flake or a false rejection
    BAD_INPUT = 2  # bad usage or input, or a host that cannot grade: one sentence on stderr
    REFUSED = 3  # grade will not run student code without bubblewrap
    INCOMPLETE = 4  # the host failed some checks: their points are withheld, and the next run grades them
    INTERRUPTED = 130  # Ctrl-C: no output written (grade keeps what it stored in OUT/.store)
DEFAULT_FOLDER = "exercises"

EXIT_CODES = """\
exit codes:
  0  finished (for check: every graded check passed)
  1  check: at least one check did not pass; validate: a hole, a flake or a false rejection
  2  bad usage or input: a missing folder, an output folder inside the submissions, an output folder
     that is neither empty nor the kit's, stored results that cannot be read or were graded otherwise
  3  refused: grade will not run student code without bubblewrap unless --allow-unsandboxed
  4  incomplete: the host failed some checks (a sandbox that would not start, a file the grader
     cannot read) or files changed while graded; their points are withheld, never counted against
     the student (their status is "incomplete" and canvas.csv's cell blank), and the next run
     grades them again
"""


GRADE_OUTPUT = """\
output folder:
  OUT gets results.json (every result, the seed, a kit marker), gradebook.csv (id, one column per
  exercise, total, max, percent, status, report path) and reports/<name>.html and .md per student.
  Grading into a folder an earlier run wrote merges by student id: stored students are kept,
  the ones graded now are replaced, and every file is rewritten for the merged class.
  OUT/.store keeps every exercise result as soon as it is known, keyed by the file, its grader,
  the reference and the settings: a rerun grades only what changed, and a stopped run resumes.
  All students in one folder share one seed, isolation, kit version and exercise list: without
  --seed the stored seed is used; anything that differs is refused unless you pass --fresh.
  A folder that is not empty and holds no results.json of the kit's is refused, never overwritten.

"""


def _cores() -> int:
    """The cores this process may run on (a container or taskset may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS and Windows
        return os.cpu_count() or 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grade.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Autograder for the deep-network gradient exercises. With no command, "
                    "grades your own files in exercises/ (same as `check exercises/`).",
        epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"gradient kit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--seed", type=seed, default=None,
                         help="seed for the random inputs (default: check uses the day's date, YYYYMMDD; others a fresh one; recorded in the "
                              "report; grade reuses the seed stored in OUT)")
        sub.add_argument("--timeout", type=call_seconds, default=sandbox.Limits.call_timeout,
                         help="seconds of CPU time one call of a student function may use (default: %(default)s)")
        sub.add_argument("--memory-mb", type=memory_mb, default=sandbox.Limits.memory_bytes >> 20,
                         help="address-space limit of a worker in MiB (default: %(default)s)")
        sub.add_argument("--isolation", choices=("auto", *sandbox.ISOLATIONS), default="auto",
                         help="how student code is isolated (default: bubblewrap where it works)")
        sub.add_argument("--workers", choices=WORKERS, default=WORKERS[0],
                         help="how each exercise's worker starts: forked from a warm sandbox per submission, "
                              "hatched in a few milliseconds inside one warm sandbox per group of students (hatched) "
                              "or started by bubblewrap for each student (zygote); or a fresh sandbox and interpreter "
                              "each (fresh); the same scores every way (default: %(default)s)")
        sub.add_argument("--no-scripts", action="store_true",
                         help="send each call of a check to the worker as the check makes it, instead of every "
                              "call recorded from the reference at once (slower; scores do not depend on it)")

    check = commands.add_parser("check", help="grade one folder of exercise files and print the report",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    check.add_argument("folder", nargs="?", default=DEFAULT_FOLDER,
                       help="folder with the exercise files, or one exercise file (default: exercises)")
    check.add_argument("--exercise", "-e", metavar="NAME", help="check only this exercise (scalar_chain or scalar_chain.py)")
    check.add_argument("--verbose", "-v", action="store_true", help="list passed checks too")
    check.add_argument("--markdown", type=Path, help="also append the report as Markdown to this file ($GITHUB_STEP_SUMMARY)")
    check.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    check.add_argument("--pass-mark", type=percent, default=None, metavar="PERCENT",
                       help="exit 0 when the graded score reaches this percentage (default: every graded check passes)")
    check.add_argument("--student-view", action="store_true",
                       help="show hidden checks as pass or fail only, as a release does (for CI a student reads)")
    common(check)

    grade = commands.add_parser("grade", help="grade a class: a folder or zip, one folder per student or an LMS export",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=GRADE_OUTPUT + EXIT_CODES)
    grade.add_argument("submissions", type=Path, help="a folder or zip: one folder per student, or a Canvas, "
                       "Gradescope or GitHub Classroom export (see README)")
    grade.add_argument("--out", type=Path, required=True,
                       help="where results.json, gradebook.csv and reports/ go: a new or empty folder, or one an "
                            "earlier grade wrote (its students are kept and the ones graded now replaced)")
    grade.add_argument("--only", nargs="+", metavar="ID",
                       help="grade only these students of SUBMISSIONS, from scratch even where results are stored "
                            "(put it after SUBMISSIONS)")
    grade.add_argument("--fresh", action="store_true",
                       help="drop the results stored in OUT and start over, with a new seed unless --seed is given")
    grade.add_argument("--jobs", type=at_least_one, default=_cores(), help="students graded at once (default: %(default)s)")
    grade.add_argument("--shard-size", type=at_least_one, default=Settings.shard_size, metavar="N",
                       help="students graded one after another in one pytest session, which pays pytest's start-up "
                            "once for them; scores do not depend on it (default: %(default)s)")
    grade.add_argument("--canvas", type=Path, metavar="ROSTER.csv",
                       help="also write canvas.csv for Canvas's gradebook import, matched to this roster (a gradebook export)")
    grade.add_argument("--canvas-column", default="Gradient kit", help="the assignment column in canvas.csv (default: %(default)s)")
    grade.add_argument("--executor", choices=("local", "dask"), default="local",
                       help="local processes, or an existing Dask cluster (pip install '.[dask]')")
    grade.add_argument("--scheduler", default="", help="the Dask scheduler's address, tcp://HOST:PORT (with --executor dask)")
    grade.add_argument("--allow-unsandboxed", action="store_true",
                       help="grade even where bubblewrap is unavailable (process limits only; see README)")
    common(grade)

    validate = commands.add_parser("validate", help="prove the graders: reference and variants pass, mutants fail",
                                   formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    validate.add_argument("--seeds", type=at_least_one, default=10, help="seeds the reference and variants must pass on (default: %(default)s)")
    validate.add_argument("--mutant-seeds", type=at_least_one, default=3, help="seeds every mutant must be caught on (default: %(default)s)")
    validate.add_argument("--mutate", action="store_true",
                          help="also grade every mutant mutmut's operators make of solutions/ (needs the 'mutate' extra)")
    validate.add_argument("--jobs", type=at_least_one, default=os.cpu_count() or 1, help="submissions graded at once (default: %(default)s)")
    common(validate)

    release = commands.add_parser("release", help="write the student distribution: no solutions, no hidden checks",
                                  formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXIT_CODES)
    release.add_argument("out", type=Path, help="a new or empty folder outside the kit")

    diff = commands.add_parser("diff", help="what changed per student and check between two grade runs")
    diff.add_argument("old", type=Path, help="the earlier output folder (holding results.json)")
    diff.add_argument("new", type=Path, help="the later output folder")

    gradescope = commands.add_parser("gradescope", help="build a Gradescope autograder zip (setup.sh, run_autograder)")
    gradescope.add_argument("out", type=Path, help="the zip to write, e.g. autograder.zip")
    return parser
