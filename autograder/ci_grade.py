"""Grade a pull request or a push in CI: ``python -m autograder.ci_grade --head REF``.

The kit that runs this file is the trusted one (the pull request's base, or the template's first
commit in Classroom). From the student's commit it takes only the exercise files, read as git
blobs and never checked out, so a commit that edits a grader, ``conftest.py``, ``pytest.ini``,
``grade.py``, the kit or the workflow changes nothing here. The report shows hidden checks as
pass or fail only (``check --student-view``) and goes to the job summary, to a file the workflow
posts as the pull request's comment, and (``--classroom-output``) to the step output GitHub
Classroom's reporter reads.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

from . import cli
from .classroom import classroom_result, encode_result
from .errors import GradeError
from .hostproof import published_isolation
from .intake import match_near_misses
from .model import batch_from_dict, load_course
from .render.documents import cut_markdown, escape_markdown
from .render.inert import shown_name
from .scratch import scratch
from .summary import append_text

MARKER = "<!-- gradient-kit:report -->"
MAX_FILE_BYTES = 1 << 20
MAX_COMMENT = 60_000  # GitHub refuses comments over 65,536 characters


def _git(repo: Path, *args: str) -> bytes:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        stderr = getattr(error, "stderr", b"") or b""
        raise GradeError(f"git {' '.join(args[:2])} failed in {repo}: "
                         f"{stderr.decode(errors='replace').strip() or error}.") from None


def take_exercises(repo: Path, head: str, folder: str, names: tuple[str, ...], target: Path) -> list[str]:
    """Write the head's exercise files (regular files only) into ``target``; notes on what was skipped."""
    commit = _git(repo, "rev-parse", "--verify", f"{head}^{{commit}}").decode().strip()
    listing = _git(repo, "ls-tree", "-z", commit, "--", *(f"{folder}/{n}.py" for n in names))
    everything = [e.split(b"\t", 1) for e in _git(repo, "ls-tree", "-z", commit, f"{folder}/").split(b"\0") if e]
    present = {Path(path.decode(errors="replace")).name for _meta, path in everything}
    blobs = [Path(path.decode(errors="replace")).name for meta, path in everything if meta.split()[1] == b"blob"]
    notes = [f"Found {folder}/{shown_name(found)} but no {folder}/{exercise}.py; it looks like this exercise under "
             f"another name, so it was not graded: rename it {exercise}.py."
             for exercise, found in match_near_misses(blobs, present, names)]
    for entry in filter(None, listing.split(b"\0")):
        meta, path = entry.split(b"\t", 1)
        mode, kind, blob = meta.decode().split()
        name = Path(path.decode(errors="replace")).name
        if kind != "blob" or mode not in ("100644", "100755"):
            notes.append(f"{folder}/{name} is not a regular file in this commit, so it was not graded.")
            continue
        if int(_git(repo, "cat-file", "-s", blob)) > MAX_FILE_BYTES:
            notes.append(f"{folder}/{name} is larger than {MAX_FILE_BYTES >> 20} MiB, so it was not graded.")
            continue
        (target / name).write_bytes(_git(repo, "cat-file", "blob", blob))
    return notes


@contextlib.contextmanager
def commands_stopped():
    """On GitHub Actions, the report ``check`` prints (a student's messages and printed text) read as
    text, not as workflow commands: a line of it that begins ``::error::``, ``::add-mask::`` or
    ``::set-output`` (after the blanks the runner trims) would otherwise forge an annotation, mask
    the log or set a step output. GitHub's ``stop-commands``, with a token no student can guess."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        yield
        return
    token = secrets.token_hex(16)
    sys.stdout.write(f"::stop-commands::{token}\n")
    sys.stdout.flush()
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdout.write(f"::{token}::\n")
        sys.stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder.ci_grade", description=__doc__.split("\n\n")[0])
    parser.add_argument("--head", required=True, help="the student's commit (a sha or ref in --repo)")
    parser.add_argument("--repo", type=Path, default=Path("."), help="the git repository holding it (default: .)")
    parser.add_argument("--exercises-dir", default="exercises", help="where the exercise files are in it")
    parser.add_argument("--pass-mark", type=cli.percent, default=100.0, help="percentage that passes (default: 100)")
    parser.add_argument("--summary", type=Path, default=os.environ.get("GITHUB_STEP_SUMMARY") or None,
                        help="file the report is appended to (default: $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--comment", type=Path, help="write the pull request comment's body here")
    parser.add_argument("--classroom-output", type=Path,
                        help="append result=<base64> for autograding-grading-reporter to this file ($GITHUB_OUTPUT)")
    parser.add_argument("--seed", default=None, help="seed for the hidden checks' inputs (default: fresh)")
    parser.add_argument("--allow-unsandboxed", action="store_true",
                        help="grade even where bubblewrap cannot start and this is not root (process limits only: "
                             "student code then runs as this user, and can read and write the kit)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    names = tuple(e.name for e in load_course(cli.ROOT / "graders"))
    try:
        with scratch("ci") as work:
            submission = Path(work) / "exercises"
            submission.mkdir()
            notes = take_exercises(args.repo, args.head, args.exercises_dir, names, submission)
            report, result = Path(work) / "report.md", Path(work) / "result.json"
            check = ["check", str(submission), "--student-view", "--pass-mark", str(args.pass_mark),
                     "--markdown", str(report), "--json", str(result), *published_isolation(args.allow_unsandboxed)]
            with commands_stopped():
                code = cli.main([*check, *(["--seed", args.seed] if args.seed else [])])
            if code not in (0, 1, cli.Exit.INCOMPLETE):
                return code
            # The notes name the pull request's files: Markdown, a mention or a comment in a name stays text.
            quoted = [f"> {escape_markdown(note)}\n" for note in notes]
            body = "\n".join([MARKER, *quoted, report.read_text(encoding="utf-8")])
            student = batch_from_dict(json.loads(result.read_text(encoding="utf-8"))).students[0]
    except GradeError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    if args.summary:
        append_text(args.summary, body)
    if args.comment:
        if len(body) > MAX_COMMENT:
            body = cut_markdown(body, MAX_COMMENT, "\n_The report was cut to fit a comment; the job summary has all of it._\n")
        args.comment.write_text(body, encoding="utf-8")
    if code == cli.Exit.INCOMPLETE:
        # The report says which checks this runner failed; a score without them would be published as lost.
        sys.stdout.write("Some checks could not be graded on this runner, through no fault of the student's; "
                         "no score was sent: run the job again.\n")
        return code
    if args.classroom_output:
        append_text(args.classroom_output, f"result={encode_result(classroom_result(student, code == 0))}\n")
    verdict = "reaches" if code == 0 else "does not reach"
    sys.stdout.write(f"Score {student.score:g}/{student.max_score:g} {verdict} the pass mark of {args.pass_mark:g}%.\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
