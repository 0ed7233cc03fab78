"""Pull requests and GitHub Classroom: only the exercise files of a commit count, hidden checks
show pass or fail only, and the outputs follow what GitHub and Classroom's reporter read."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from autograder import cli
from autograder.ci_grade import MARKER, MAX_COMMENT
from autograder.catalogue import write_submission
from autograder.release import build_release
from autograder.render.documents import code_block, cut_markdown
from autograder.student_view import HIDDEN_VERDICTS
from conftest import MUTANTS, ROOT, SOLUTIONS

WORKFLOWS = [ROOT / ".github" / "workflows" / "grade.yml", ROOT / "ci" / "classroom.yml"]

# Written from autograding-grading-reporter's source: main.js decodes base64 JSON from
# <RUNNER>_RESULTS and fails on status "fail"/"error"; aggregate-results.js and console-results.js
# read results.max_score and tests[].status ("pass" counts), tests[].name, tests[].message;
# notify-classroom.js adds up tests[].score against results.max_score.
CLASSROOM_SCHEMA = {
    "type": "object",
    "required": ["status", "max_score", "tests"],
    "properties": {
        "version": {"type": "integer"},
        "status": {"enum": ["pass", "fail", "error"]},
        "max_score": {"type": "number", "exclusiveMinimum": 0},
        "tests": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["name", "status", "score", "message"],
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "status": {"enum": ["pass", "fail", "error"]},
                "score": {"type": "number", "minimum": 0},
                "max_score": {"type": "number", "minimum": 0},
                "message": {"type": "string"},
            },
        }},
    },
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course repository made from the release (the base) and a pull request branch ``pr``
    that edits a grader, adds conftest.py files, edits the workflow, links one exercise to the
    reference and solves scalar_chain."""
    repo = tmp_path_factory.mktemp("course") / "repo"
    build_release(ROOT, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "pr")
    (repo / "graders" / "test_scalar_chain.py").write_text(
        'EXERCISE = "scalar_chain"\n\ndef test_trivial():\n    """Always passes."""\n')
    cheat = "import pytest\n\n@pytest.hookimpl(tryfirst=True)\ndef pytest_collection_modifyitems(items):\n    items.clear()\n"
    (repo / "conftest.py").write_text(cheat)
    (repo / "graders" / "conftest.py").write_text(cheat)
    (repo / "graders" / "pytest.ini").write_text("[pytest]\naddopts = -p no:autograder\n")
    workflow = repo / ".github" / "workflows" / "grade.yml"
    workflow.write_text(workflow.read_text().replace("ci_grade", "ci_grade --pass-mark 0"))
    shutil.copy(SOLUTIONS / "scalar_chain.py", repo / "exercises" / "scalar_chain.py")
    (repo / "exercises" / "clipping.py").unlink()
    (repo / "exercises" / "init_std.py").rename(repo / "exercises" / "Init_Std.py")
    os.symlink("../../../solutions/clipping.py", repo / "exercises" / "clipping.py")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "student pull request")
    git(repo, "checkout", "-q", "main")
    return repo


def run_ci_grade(repo: Path, *args: str) -> subprocess.CompletedProcess:
    """The grading step as the workflow runs it: from the trusted base checkout."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    env.pop("GITHUB_STEP_SUMMARY", None)
    return subprocess.run([sys.executable, "-m", "autograder.ci_grade", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def test_only_the_exercise_change_counts(course, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("Earlier step's summary.\n")
    output = tmp_path / "github_output"
    done = run_ci_grade(course, "--head", "pr", "--pass-mark", "10", "--seed", "7", "--summary", str(summary),
                        "--comment", str(tmp_path / "comment.md"), "--classroom-output", str(output))
    assert done.returncode in (0, 1), done.stderr
    result = json.loads(base64.b64decode(output.read_text().strip().removeprefix("result=")))
    jsonschema.validate(result, CLASSROOM_SCHEMA)
    base_checks = (course / "graders" / "test_scalar_chain.py").read_text().count("\ndef test_")
    scalar = [t for t in result["tests"] if t["name"].startswith("scalar_chain: ")]
    assert len(scalar) == base_checks > 1
    assert all(t["status"] == "pass" for t in scalar)
    others = [t for t in result["tests"] if not t["name"].startswith("scalar_chain: ")]
    assert others and all(t["status"] != "pass" for t in others)  # stubs, and the link was not followed
    assert sum(t["score"] for t in result["tests"]) == sum(t["max_score"] for t in scalar) > 0
    comment = (tmp_path / "comment.md").read_text()
    assert comment.startswith("<!-- gradient-kit:report -->")
    assert "exercises/clipping.py is not a regular file" in comment
    assert r"Found exercises/Init\_Std.py but no exercises/init\_std.py" in comment  # as Markdown text
    text = summary.read_text()
    assert text.startswith("Earlier step's summary.\n") and "# Feedback for exercises" in text
    # A pass mark above what the exercise change earns fails the check.
    assert run_ci_grade(course, "--head", "pr", "--pass-mark", "90", "--seed", "7").returncode == 1


def test_checks_the_runner_failed_are_in_the_comment_but_no_score_is_sent(course, tmp_path, monkeypatch, capsys):
    from autograder import ci_grade, connection, preflight

    def never_ready(*args, **kwargs):
        raise connection.NotStarted("ended before it was ready")
    monkeypatch.setattr(preflight, "prove", lambda *args: None)  # the runner fails after its proof
    monkeypatch.setattr(connection, "_await_ready", never_ready)
    output, comment = tmp_path / "github_output", tmp_path / "comment.md"
    code = ci_grade.main(["--repo", str(course), "--head", "pr", "--seed", "7", "--comment", str(comment),
                          "--classroom-output", str(output)])
    assert code == 4 and not output.exists()
    assert r"The sandbox could not start during the import of scalar\_chain.py" in comment.read_text()
    assert "no score was sent: run the job again." in capsys.readouterr().out


def test_a_pull_request_that_only_edits_the_graders_earns_nothing(course, tmp_path):
    git(course, "checkout", "-qb", "cheat", "pr")
    try:
        git(course, "checkout", "-q", "main", "--", "exercises")
        git(course, "commit", "-qam", "graders only")
    finally:
        git(course, "checkout", "-q", "main")
    done = run_ci_grade(course, "--head", "cheat", "--pass-mark", "1", "--classroom-output", str(tmp_path / "o"))
    assert done.returncode == 1, done.stdout + done.stderr
    result = json.loads(base64.b64decode((tmp_path / "o").read_text().strip().removeprefix("result=")))
    assert sum(t["score"] for t in result["tests"]) == 0 and result["status"] == "fail"


# A file name and an error message as a pull request could write them: a fake passing header, a
# link, mentions, an issue reference and an unclosed comment that would hide the real report.
FAKE_NAME = ("scalar_chain.py\n\n# Feedback: 115 of 115 (100%) ✅ every check passed\n\n"
             "**Grading note:** [sign in](www.evil.example) cc @octo-org #1\n\n<!-- ")
FAKE_MESSAGE = "@octo-org/team <!-- [x](http://e) \r\n# H\r\n- item <b>@octo</b>"


def test_nothing_a_pull_request_writes_is_read_as_markdown_in_the_comment(course, tmp_path):
    from test_render import outside_code_blocks

    git(course, "checkout", "-qb", "markdown", "main")
    try:
        (course / "exercises" / "scalar_chain.py").rename(course / "exercises" / FAKE_NAME)
        residual = course / "exercises" / "residual.py"
        residual.write_text(residual.read_text() + f"\nraise ValueError({FAKE_MESSAGE!r})\n")
        git(course, "add", "-A")
        git(course, "commit", "-qm", "markdown in a name and a message")
    finally:
        git(course, "checkout", "-q", "main")
    summary, comment = tmp_path / "summary.md", tmp_path / "comment.md"
    done = run_ci_grade(course, "--head", "markdown", "--seed", "7", "--summary", str(summary),
                        "--comment", str(comment))
    assert done.returncode == 1, done.stdout + done.stderr
    body = comment.read_text()
    assert summary.read_text() == body
    assert "no exercises/scalar\\_chain.py" in body and "raised ValueError" in body  # both are shown, as text
    prose = outside_code_blocks(body).splitlines()
    headings = [line for line in prose if re.match(r"[>\s]*#", line)]
    assert headings[0].startswith("# Feedback for exercises: ") and len(headings) == 7, headings
    assert all(re.fullmatch(r"## [\w ]+ \(`\w+\.py`\): \d+/\d+", line) for line in headings[1:]), headings
    blocks = [line for line in prose if re.match(r"[>\s]*([-+=<]|\d+[.)])", line)]
    assert [line for line in blocks if not re.match(r"- \*\*test_\w+\*\* \(\w+\)", line)] == [MARKER]  # the kit's
    text = "\n".join(prose)
    assert "scalar\\_chain.py\\\\n\\\\n\\#\u200b Feedback" in text  # the name's newlines, seen as \n
    assert re.findall(r"(?<!\\)<!--", text) == ["<!--"]  # the kit's marker alone: nothing hides the report
    assert not re.search(r"(?<!\\)(\]\(|<b>|://|www\.)", text), "a link or a tag"
    assert not re.search(r"[@#][\w-]", text), "a mention or an issue reference"
    assert "@\u200bocto-org/team" in text and "\\#\u200b1" in text
    assert "\r" not in body


def test_a_missing_head_is_one_sentence(course):
    done = run_ci_grade(course, "--head", "no-such-branch")
    assert done.returncode == 2 and done.stderr.startswith("error: git rev-parse") and done.stderr.count("\n") == 1


def test_hidden_checks_show_only_pass_or_fail_with_student_view(capsys, tmp_path):
    entry = next(e for e in MUTANTS if e.exercise == "clipping" and "test_matches_reference_on_random_gradients" in e.killed_by)
    folder = write_submission(entry, SOLUTIONS, tmp_path / "mutant")
    for view, name in (([], "full"), (["--student-view"], "student")):
        cli.main(["check", str(folder), "--seed", "3", "--json", str(tmp_path / f"{name}.json"),
                  "--markdown", str(tmp_path / f"{name}.md"), *view])
        capsys.readouterr()
    def hidden(name):
        student = json.loads((tmp_path / f"{name}.json").read_text())["students"][0]
        return [t for e in student["exercises"] if e["name"] == "clipping" for t in e["tests"]
                if t["visibility"] == "hidden" and t["status"] == "failed"]
    full, student = hidden("full"), hidden("student")
    # The plugin never records a hidden check's inputs or expected values; the student view also
    # drops its hint, as a release shows it.
    assert full and "expected" not in full[0]["message"] and full[0]["hint"]
    assert [t["message"] for t in student] == [HIDDEN_VERDICTS["failed"]] * len(full)
    assert all(not t["hint"] and not t["detail"] and t["output"] is None for t in student)
    assert full[0]["message"].split(";")[0][:40] not in (tmp_path / "student.md").read_text()


def test_markdown_appends_and_pass_mark_sets_the_exit_code(capsys, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("kept\n")
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(SOLUTIONS / "scalar_chain.py", folder)
    assert cli.main(["check", str(folder), "--seed", "1", "--markdown", str(summary)]) == 1
    assert cli.main(["check", str(folder), "--seed", "1", "--markdown", str(summary), "--pass-mark", "5"]) == 0
    assert cli.main(["check", str(folder), "--seed", "1", "--pass-mark", "95"]) == 1
    capsys.readouterr()
    text = summary.read_text()
    assert text.startswith("kept\n") and text.count("# Feedback for one") == 2
    (folder / "Clipping.py.txt").write_text("x")
    cli.main(["check", str(folder), "--seed", "1"])
    assert "Found Clipping.py.txt but no clipping.py" in capsys.readouterr().out


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflows_pass_actionlint(workflow):
    actionlint = shutil.which("actionlint")
    assert actionlint, "actionlint is missing: pip install -e '.[test]'"
    done = subprocess.run([actionlint, "-no-color", str(workflow)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_pull_request_workflow_never_runs_head_code_with_a_write_token():
    workflow = yaml.safe_load(WORKFLOWS[0].read_text())
    assert list(workflow[True]) == ["pull_request_target"]  # YAML reads the key `on` as True
    assert workflow["permissions"] == {}
    grade, comment = workflow["jobs"]["grade"], workflow["jobs"]["comment"]
    assert grade["permissions"] == {"contents": "read"}
    checkout = next(s for s in grade["steps"] if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert any("autograder.ci_grade" in s.get("run", "") for s in grade["steps"])
    assert "write" in comment["permissions"].values()
    assert not any("run" in s or "actions/checkout" in s.get("uses", "") for s in comment["steps"])
    assert not any("head.sha" in json.dumps(s) or "head.ref" in json.dumps(s) for s in grade["steps"])


def test_classroom_result_leaves_pending_checks_out_and_carries_points_and_messages():
    from autograder.classroom import classroom_result, encode_result
    from autograder.model import CheckResult, exercise_result, student_result

    checks = (CheckResult("test_a", "Keeps the sign.", 2.0, 2.0, "passed"),
              CheckResult("test_b", "Depth 0.", 0.0, 1.0, "failed", message="f(0) returned 0", hint="Return 1.0."),
              CheckResult("test_c", "Hangs?", 0.0, 1.0, "timeout", message="timed out"),
              CheckResult("test_h", "Hidden.", 0.0, 3.0, "pending", visibility="hidden"))
    student = student_result("ada", (exercise_result("scalar_chain", "Chain", checks),))
    result = classroom_result(student, passed=False)
    jsonschema.validate(result, CLASSROOM_SCHEMA)
    assert [t["status"] for t in result["tests"]] == ["pass", "fail", "error"]
    assert result["max_score"] == 4 and sum(t["score"] for t in result["tests"]) == 2
    assert result["tests"][1]["message"] == "f(0) returned 0 Hint: Return 1.0."
    assert json.loads(base64.b64decode(encode_result(result))) == result


def test_classroom_messages_are_one_line_each_so_no_line_of_a_students_text_is_a_workflow_command():
    """The grading reporter prints each message in a step of its own, where our stop-commands does
    not hold: a message's newline followed by ``::error``, or ``##[error]`` anywhere, would be read
    by the runner."""
    from autograder.classroom import classroom_result
    from autograder.model import CheckResult, exercise_result, student_result

    forged = ("nope\n::error title=Grader::All checks passed\r\n::add-mask::scalar_chain\x85::warning::x "
              "##[error title=Grader]All passed ###[add-mask]x")
    checks = (CheckResult("test_b", "Depth\n::notice::0.", 0.0, 1.0, "failed", message=forged, hint="Look\nagain."),)
    student = student_result("ada", (exercise_result("scalar_chain", "Chain", checks),))
    (test,) = classroom_result(student, passed=False)["tests"]
    for text in (test["name"], test["message"]):
        assert not any(line.lstrip().startswith("::") for line in text.splitlines()[1:]) and len(text.splitlines()) == 1
        assert "##[" not in text  # the runner's older command form, read anywhere in a line
    assert "All checks passed" in test["message"] and "again." in test["message"]


def _trusted_kit_step() -> str:
    workflow = yaml.safe_load(WORKFLOWS[1].read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    return next(s["run"] for s in steps if ".trusted-kit" in s.get("run", "") and "worktree" in s["run"])


def test_classroom_refuses_a_second_root_commit_merged_in(tmp_path):
    """Red team: a back-dated root commit merged in (-s ours, so HEAD's files stay the template's)
    came last in `git rev-list --max-parents=0 HEAD | tail -n 1` and was checked out as the trusted kit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "KIT").write_text("the template's kit\n")
    git(repo, "add", "KIT")
    git(repo, "commit", "-qm", "template")
    step = _trusted_kit_step()
    done = subprocess.run(["bash", "-e", "-c", step], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (repo / ".trusted-kit" / "KIT").read_text() == "the template's kit\n"
    git(repo, "worktree", "remove", "--force", ".trusted-kit")
    git(repo, "checkout", "-q", "--orphan", "evil")
    (repo / "KIT").write_text("a kit where every check passes\n")
    git(repo, "add", "KIT")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_COMMITTER_DATE": "1975-01-01T00:00:00",
           "GIT_AUTHOR_DATE": "1975-01-01T00:00:00"}
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "Initial commit"], check=True, env=env)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--allow-unrelated-histories", "-s", "ours", "evil", "-m", "merge")
    assert (repo / "KIT").read_text() == "the template's kit\n"  # HEAD looks untouched
    done = subprocess.run(["bash", "-e", "-c", step], cwd=repo, capture_output=True, text=True)
    assert done.returncode != 0
    assert not (repo / ".trusted-kit").exists()


@pytest.mark.parametrize("entry", ["ci_grade", "gradescope"])
def test_a_published_score_never_comes_from_unsandboxed_student_code(course, tmp_path, monkeypatch, entry):
    """Red team: where bubblewrap could not start, CI's and Gradescope's check fell back to process
    limits, and as a plain user the student's code read the reference and wrote a conftest.py into
    the kit that passed every later run. Not as root, they now refuse: no score, no comment."""
    from autograder import bwrap, ci_grade, gradescope, sandbox
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(bwrap, "first", lambda: None)
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.Search(None, "setting up uid map: Permission denied"))
    if entry == "ci_grade":
        output, comment = tmp_path / "github_output", tmp_path / "comment.md"
        code = ci_grade.main(["--repo", str(course), "--head", "pr", "--seed", "7", "--comment", str(comment),
                              "--classroom-output", str(output)])
        assert code == cli.Exit.REFUSED and not output.exists() and not comment.exists()
        return
    root = tmp_path / "gs"
    (root / "submission").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "scalar_chain.py", root / "submission" / "scalar_chain.py")
    assert gradescope.run(root) == cli.Exit.REFUSED
    assert not (root / "results" / "results.json").exists()


def test_on_github_actions_the_checks_output_is_fenced_by_stop_commands_with_a_fresh_token(
        course, tmp_path, monkeypatch, capsys):
    """The runner reads any step-log line that starts with '::' as a workflow command: a student's
    exception message could forge an error annotation, mask the log or set the step output the
    Classroom reporter reads. What ``check`` prints is fenced by ::stop-commands::<token>."""
    from autograder import ci_grade
    from autograder.model import BatchResult, student_result
    from autograder.render.tables import render_json

    forged = "::error title=Grader::the kit is broken\n  ::set-output name=result::AAAA\n::add-mask::Total\n"

    def check_printing_the_students_text(argv):  # what check prints of a student's failing run
        sys.stdout.write(f"scalar_chain.py raised ValueError: boom\n{forged}")
        sys.stderr.write(forged)
        Path(argv[argv.index("--markdown") + 1]).write_text("# Feedback\n")
        Path(argv[argv.index("--json") + 1]).write_text(render_json(BatchResult(7, "process", (student_result("s", ()),))))
        return 1

    monkeypatch.setattr(cli, "main", check_printing_the_students_text)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    tokens = []
    for _run in range(2):
        ci_grade.main(["--repo", str(course), "--head", "pr", "--seed", "7"])
        out = capsys.readouterr().out.splitlines()
        start = next(n for n, line in enumerate(out) if line.startswith("::stop-commands::"))
        token = out[start].removeprefix("::stop-commands::")
        assert len(token) >= 32 and out.count(f"::{token}::") == 1
        fenced = out[start + 1:out.index(f"::{token}::")]
        assert [line for line in out if line.strip().startswith("::")] == [out[start], *[
            line for line in fenced if line.strip().startswith("::")], f"::{token}::"]
        assert "::error title=Grader::the kit is broken" in fenced and "  ::set-output name=result::AAAA" in fenced
        tokens.append(token)
    assert tokens[0] != tokens[1]
    monkeypatch.delenv("GITHUB_ACTIONS")
    ci_grade.main(["--repo", str(course), "--head", "pr", "--seed", "7"])
    assert "::stop-commands::" not in capsys.readouterr().out  # elsewhere, nothing is added


def _open_fence(markdown: str) -> str:
    """The fence of the code block left open at the end of ``markdown`` ("" when none is)."""
    fence = ""
    for line in markdown.splitlines():
        run = re.fullmatch(r"(`{3,})(\w*)", line)
        if run and not fence and run.group(2):
            fence = run.group(1)
        elif run and fence and line == fence:
            fence = ""
    return fence


@pytest.mark.parametrize("printed", ["x" * 80 + "\n", "`" * 5 + " print\n", "y" * 70_000],
                         ids=["short lines", "backtick runs", "one long line"])
def test_a_comment_cut_to_fit_closes_the_code_block_it_cut_into(printed):
    body = "\n\n".join([MARKER, "# Report", code_block(printed * (MAX_COMMENT // len(printed) + 10)),
                        "## Next exercise", "text after"])
    cut = cut_markdown(body, MAX_COMMENT, "\n_cut note_\n")
    assert len(cut) <= MAX_COMMENT + 200 and cut.endswith("\n_cut note_\n") and cut.startswith(MARKER)
    assert _open_fence(cut) == "", cut[-300:]
    assert cut_markdown(body[:5000], MAX_COMMENT, "note") == body[:5000]
