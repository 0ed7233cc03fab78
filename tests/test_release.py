"""The student release carries no answers, and `check` works inside it from a fresh copy."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.errors import GradeError
from autograder.release import build_release, strip_hidden, without_suite_settings
from conftest import COURSE, GRADERS, ROOT, SOLUTIONS, VARIANTS

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user



def distinctive(value: object) -> bool:
    """A literal that would give an answer away: a long string, a big or many-digit number."""
    if isinstance(value, str):
        return len(value) >= 12
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, int) or float(value).is_integer():
        return abs(value) >= 1000
    digits = f"{abs(value):.15g}".split("e")[0].replace(".", "").strip("0")
    return len(digits) >= 3


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("release") / "kit"
    build_release(ROOT, out)
    return out


def release_text(release: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in release.rglob("*") if p.is_file())


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def statements(path: Path) -> list[str]:
    """Every statement inside the functions of a solution file, as source, 20 characters or more."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for statement in ast.walk(node):
                if isinstance(statement, ast.stmt) and statement is not node:
                    text = squash(ast.unparse(statement))
                    if len(text) >= 20:
                        found.append(text)
    return found


def hidden_constants(source: str) -> set:
    """Literals used by hidden checks and hidden helpers (docstrings aside)."""
    tree = ast.parse(source)
    found = set()
    for node in tree.body:
        name = getattr(node, "name", "")
        decorators = ast.unparse(node).split("\ndef")[0] if hasattr(node, "decorator_list") else ""
        if not (name.startswith("_hidden") or ".hidden" in decorators):
            continue
        docstrings = {id(n.body[0].value) for n in ast.walk(node)
                      if isinstance(n, (ast.FunctionDef,)) and n.body and isinstance(n.body[0], ast.Expr)}
        for constant in ast.walk(node):
            if isinstance(constant, ast.Constant) and id(constant) not in docstrings:
                if distinctive(constant.value):
                    found.add(constant.value)
    return found


def all_constants(folder: Path) -> set:
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, type(None), bytes)):
                found.add(node.value)
    return found


def test_release_ships_only_the_student_side(release):
    assert sorted(p.name for p in release.iterdir()) == [
        ".github", "README.md", "autograder", "ci", "exercises", "grade.py", "graders", "pyproject.toml", "templates"]
    assert (release / ".github" / "workflows" / "grade.yml").read_text() == \
        (ROOT / ".github" / "workflows" / "grade.yml").read_text()
    assert (release / "ci" / "classroom.yml").is_file()
    assert sorted(p.name for p in (release / "graders").iterdir()) == sorted(
        ["course.toml", "pytest.ini", "hidden.json"] + [f"test_{e.name}.py" for e in COURSE])
    for exercise in COURSE:
        assert (release / "exercises" / f"{exercise.name}.py").read_text() == \
            (ROOT / "exercises" / f"{exercise.name}.py").read_text()


def test_release_carries_no_reference_or_variant_code(release):
    text = squash(release_text(release))
    sources = sorted(SOLUTIONS.glob("*.py")) + [v.path for v in VARIANTS]
    leaks = [(path.name, s) for path in sources for s in statements(path) if s in text]
    assert leaks == []


def test_release_carries_no_hidden_check_or_its_literals(release):
    shipped = all_constants(release / "graders")
    text = release_text(release)
    for exercise in COURSE:
        source = (GRADERS / f"test_{exercise.name}.py").read_text()
        public, hidden = strip_hidden(source)
        public_constants = {n.value for n in ast.walk(ast.parse(public)) if isinstance(n, ast.Constant)}
        secret = hidden_constants(source) - public_constants
        assert secret & shipped == set(), exercise.name
        assert [s for s in secret if isinstance(s, str) and s in text] == []
        for check in hidden:
            assert f"def {check.name}(" not in text
    assert "reference" not in {a.arg for p in (release / "graders").glob("*.py")
                               for n in ast.walk(ast.parse(p.read_text())) if isinstance(n, ast.FunctionDef)
                               for a in n.args.args}


def test_manifest_lists_every_hidden_check_with_points(release):
    manifest = json.loads((release / "graders" / "hidden.json").read_text())
    for exercise in COURSE:
        _, hidden = strip_hidden((GRADERS / f"test_{exercise.name}.py").read_text())
        assert manifest[exercise.name] == [vars(h) for h in hidden]
        assert all(h.points > 0 and h.description for h in hidden)


def grade_in(folder: Path, *args: str, env: dict | None = None, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "grade.py", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600, env={**os.environ, **(env or {})})


def test_check_works_in_a_fresh_copy_of_the_release(release, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(release, copy)
    stubs = grade_in(copy)
    assert stubs.returncode == 1, stubs.stderr
    assert "not implemented yet" in stubs.stdout and "hidden: graded after submission" in stubs.stdout
    assert "could not be loaded" not in stubs.stdout
    shutil.copytree(SOLUTIONS, copy / "mine")
    finished = grade_in(copy, "check", "mine", "--json", "mine.json")
    assert finished.returncode == 0, finished.stdout
    results = json.loads((copy / "mine.json").read_text())["students"][0]
    pending = [t for e in results["exercises"] for t in e["tests"] if t["status"] == "pending"]
    manifest = json.loads((copy / "graders" / "hidden.json").read_text())
    assert len(pending) == sum(len(v) for v in manifest.values()) > 0
    assert results["score"] == results["max_score"] > 0
    assert results["pending_points"] == sum(h["points"] for v in manifest.values() for h in v)


def test_the_release_pyproject_is_the_kits_without_the_kits_own_test_settings(release):
    import tomllib

    kit = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = tomllib.loads((release / "pyproject.toml").read_text())
    assert "-n 2" in kit["tool"]["pytest"]["ini_options"]["addopts"]  # what a release must not carry
    del kit["tool"]["pytest"]
    assert shipped == kit


def test_the_command_graders_pytest_ini_gives_grades_the_stubs_in_a_release(release, tmp_path):
    # The release carries no pytest settings of the kit's (its tests/ folder, two xdist workers):
    # the command its graders' pytest.ini documents runs there as written.
    copy = tmp_path / "copy"
    shutil.copytree(release, copy)
    comment = (copy / "graders" / "pytest.ini").read_text().splitlines()[0]
    command = re.search(r"`(pytest [^`]*)`", comment).group(1).replace("DIR", "exercises").split()
    completed = subprocess.run([sys.executable, "-m", *command], cwd=copy, capture_output=True, text=True,
                               timeout=300)
    assert completed.returncode == 1, completed.stdout[-2000:] + completed.stderr[-2000:]
    assert "NotImplementedError" in completed.stdout and " passed" not in completed.stdout.splitlines()[-1]


def test_a_pytest_table_the_release_cannot_cut_out_is_refused():
    inline = '[project]\nname = "kit"\n\n[tool]\npytest = { ini_options = { addopts = "-n 2" } }\n'
    with pytest.raises(GradeError, match="could not be cut out"):
        without_suite_settings(inline)
    spaced = '[project]\nname = "kit"\n\n[ tool.pytest.ini_options ]  # ours\naddopts = "-n 2"\n[tool.x]\ny = 1\n'
    assert without_suite_settings(spaced) == '[project]\nname = "kit"\n\n[tool.x]\ny = 1\n'


def test_validate_and_release_refuse_to_run_inside_a_release(release, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(release, copy)
    for command in (["validate"], ["release", str(tmp_path / "again")]):
        completed = grade_in(copy, *command)
        assert completed.returncode == 2 and completed.stderr.startswith("error: ")


def test_release_refuses_a_non_empty_folder_or_one_inside_the_kit(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(GradeError, match="not empty"):
        build_release(ROOT, tmp_path / "full")
    with pytest.raises(GradeError, match="inside the kit"):
        build_release(ROOT, ROOT / "build" / "release")


SAMPLE = '''"""A grader."""
import pytest

EXERCISE = "x"


def helper(v):
    return v


@pytest.mark.points(2)
def test_public(student):
    """Public."""
    assert helper(1) == 1


def _hidden_answer(v):
    return v * 42.125


@pytest.mark.points(3)
@pytest.mark.hidden
def test_secret(student, reference):
    """Secret sentence."""
    assert _hidden_answer(1) == 42.125
'''


def test_strip_hidden_keeps_public_code_as_written_and_lists_hidden_checks():
    public, hidden = strip_hidden(SAMPLE)
    assert "42.125" not in public and "_hidden" not in public and "test_secret" not in public
    assert '@pytest.mark.points(2)\ndef test_public(student):\n    """Public."""' in public
    compile(public, "public", "exec")
    assert [vars(h) for h in hidden] == [{"name": "test_secret", "points": 3.0, "description": "Secret sentence."}]


def test_strip_hidden_refuses_public_checks_that_use_hidden_helpers():
    source = SAMPLE.replace("assert helper(1) == 1", "assert _hidden_answer(1)")
    with pytest.raises(GradeError, match="hidden helpers"):
        strip_hidden(source)


def test_check_in_a_release_answers_unchanged_files_from_its_last_run_and_grades_a_change_afresh(release, tmp_path):
    """A release has no reference to record: check keeps its own last run's calls and passing
    answers (in the user's cache), so the same files are checked again without pytest, and a
    changed file is graded the full way."""
    copy = tmp_path / "copy"
    shutil.copytree(release, copy)
    shutil.copytree(SOLUTIONS, copy / "mine")
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = grade_in(copy, "check", "mine", "--json", "first.json", env=cache)
    assert first.returncode == 0, first.stdout
    again = grade_in(copy, "check", "mine", "--json", "again.json", env=cache, flags=("-X", "importtime"))
    assert again.returncode == 0, again.stdout
    imported = {line.split("|")[-1].strip() for line in again.stderr.splitlines() if line.startswith("import time:")}
    assert "pytest" not in imported and "_pytest" not in imported and "autograder.plugin" not in imported
    assert json_students(copy / "again.json") == json_students(copy / "first.json")
    residual = copy / "mine" / "residual.py"
    residual.write_text(residual.read_text() + "\n\ndef residual_chain_gradient(depth, block_slope, residual=True):\n"
                        "    return block_slope ** depth\n")
    changed = grade_in(copy, "check", "mine", "--json", "changed.json", env=cache)
    assert changed.returncode == 1, changed.stdout
    exercise = next(e for e in json_students(copy / "changed.json")["exercises"] if e["name"] == "residual")
    assert exercise["score"] < exercise["max_score"]
    # The others were answered from the last run, and their scripts and verdicts are still kept
    # beside this run's recording of the changed file: the report is the full way's all the same.
    kept = json.loads(next((tmp_path / "cache" / "gradient-kit" / "scripts").glob("*.json")).read_text())
    assert sorted(kept["checks"]) == sorted(p.stem for p in SOLUTIONS.glob("*.py"))
    assert all(kept["verdicts"]["entries"].get(n) for name, nodeids in kept["checks"].items() if name != "residual"
               for n in nodeids)
    for run in ("again", "whole"):
        done = grade_in(copy, "check", "mine", "--json", f"{run}.json", *(("--no-scripts",) if run == "whole" else ()),
                        env=cache)
        assert done.returncode == 1 and json_students(copy / f"{run}.json") == json_students(copy / "changed.json")


def json_students(path: Path) -> dict:
    """The one student of a check's JSON, without when it was graded."""
    student = json.loads(path.read_text())["students"][0]
    return {key: value for key, value in student.items() if key != "graded"}
