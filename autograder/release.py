"""The student release: the kit without answers, made from the same grader source.

Hidden checks (tests marked ``@pytest.mark.hidden``) and the helpers only they use (top-level
names starting with ``_hidden``) are cut out of each grader with :mod:`ast`; what is left is the
public grader, byte for byte as written. A manifest, ``graders/hidden.json``, keeps each hidden
check's name, points and sentence so the student's report can list it as "graded after
submission".
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import GradeError
from .model import PENDING_LABEL, load_course
from .sandbox import Limits

# The workflows let a course repository made from the release grade pull requests (and Classroom pushes).
SHIPPED_FILES = ("grade.py", ".github/workflows/grade.yml", "ci/classroom.yml")
SHIPPED_DIRS = ("exercises", "templates", "autograder")
GRADER_FILES = ("course.toml", "pytest.ini")


# The kit's own test suite's settings (its folder, two workers): a release has no tests/, and
# every way it grades passes graders/pytest.ini, so a bare `pytest` there must not meet them.
SUITE_TABLE = "tool.pytest.ini_options"
TABLE_HEADER = re.compile(r"^\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")


@dataclass(frozen=True)
class HiddenCheck:
    name: str
    points: float
    description: str


def _is_hidden(node: ast.AST) -> bool:
    for decorator in getattr(node, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "hidden":
            return True
        if isinstance(target, ast.Name) and target.id == "hidden":
            return True
    return False


def _points(node: ast.FunctionDef) -> float:
    for decorator in node.decorator_list:
        if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "points" and decorator.args):
            return float(ast.literal_eval(decorator.args[0]))
    return 1.0


def _defined_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def strip_hidden(source: str, filename: str = "<grader>") -> tuple[str, list[HiddenCheck]]:
    """The public part of a grader's source, and the hidden checks taken out of it."""
    tree = ast.parse(source, filename=filename)
    lines = source.splitlines(keepends=True)
    cut: list[tuple[int, int]] = []
    hidden: list[HiddenCheck] = []
    for node in tree.body:
        names = _defined_names(node)
        if _is_hidden(node):
            hidden.append(HiddenCheck(node.name, _points(node), " ".join((ast.get_docstring(node) or "").split())))
        elif not (names and all(name.startswith("_hidden") for name in names)):
            continue
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        cut.append((first - 1, node.end_lineno))
    kept = [line for index, line in enumerate(lines) if not any(start <= index < end for start, end in cut)]
    public = "".join(kept)
    public = "\n\n\n".join(part.strip("\n") for part in public.split("\n\n\n\n") if part.strip()) + "\n"
    leftover = {n.id for n in ast.walk(ast.parse(public)) if isinstance(n, ast.Name) and n.id.startswith("_hidden")}
    if leftover:
        raise GradeError(f"{filename}: public checks use hidden helpers ({', '.join(sorted(leftover))}).")
    return public, hidden


def _student_readme(course, hidden: dict[str, list[dict]]) -> str:
    rows = "\n".join(f"| `{e.name}.py` | {e.title} | {len(hidden.get(e.name, []))} |" for e in course)
    return f"""# Gradient kit: your exercises

Fill in the functions in `exercises/`. Each file starts with a paragraph on why the idea matters
and each function's docstring is its full specification.

Check your work at any time (Python 3.10+):

```bash
pip install -e .
python grade.py
```

You get a score per exercise and, for every check that does not pass yet, what your code
returned, what was expected, and a hint. `python grade.py -v` lists the passing checks too.

Some checks are hidden: they compare your functions with a reference solution on random inputs
after you submit. Your report lists them as "{PENDING_LABEL}" with their points.

| file | topic | hidden checks |
|---|---|---|
{rows}

A pull request to your course repository is graded by `.github/workflows/grade.yml`: only your
files in `exercises/` count, the report appears as one comment (updated on every push), and
hidden checks show only whether they passed.

Your code runs in a separate, sandboxed process with a time limit per call ({Limits.call_timeout:g} seconds by default):
a function that loops forever or crashes costs that check, never the others.
"""


def without_suite_settings(pyproject: str) -> str:
    """``pyproject`` as written, less the :data:`SUITE_TABLE` table (its header to the next one)."""
    kept, inside = [], False
    for line in pyproject.splitlines(keepends=True):
        header = TABLE_HEADER.match(line)
        if header:
            inside = header.group(1).replace(" ", "") == SUITE_TABLE
        if not inside:
            kept.append(line)
    text = "".join(kept)
    expected = tomllib.loads(pyproject)
    expected.get("tool", {}).pop("pytest", None)
    if expected.get("tool") == {}:  # its only table was pytest's: no [tool...] header is left either
        del expected["tool"]
    if tomllib.loads(text) != expected:
        raise GradeError("pyproject.toml's [tool.pytest.ini_options] could not be cut out cleanly; "
                         "keep it a table of its own, after its header.")
    return text


def build_release(root: Path, out: Path) -> dict[str, list[dict]]:
    """Write the student distribution of the kit at ``root`` into ``out``; returns the manifest."""
    if out.exists() and any(out.iterdir()):
        raise GradeError(f"{out} is not empty; give release a new or empty folder.")
    if out.resolve().is_relative_to(root.resolve()):
        raise GradeError(f"{out} is inside the kit; write the release somewhere outside it.")
    course = load_course(root / "graders")
    out.mkdir(parents=True, exist_ok=True)
    for name in SHIPPED_FILES:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, out / name)
    (out / "pyproject.toml").write_text(without_suite_settings((root / "pyproject.toml").read_text(encoding="utf-8")),
                                        encoding="utf-8")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SHIPPED_DIRS:
        shutil.copytree(root / name, out / name, ignore=ignore)
    (out / "graders").mkdir()
    for name in GRADER_FILES:
        shutil.copy2(root / "graders" / name, out / "graders" / name)
    manifest: dict[str, list[dict]] = {}
    for exercise in course:
        source_path = root / "graders" / f"test_{exercise.name}.py"
        public, hidden = strip_hidden(source_path.read_text(encoding="utf-8"), str(source_path))
        (out / "graders" / source_path.name).write_text(public, encoding="utf-8")
        manifest[exercise.name] = [vars(h) for h in hidden]
    (out / "graders" / "hidden.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (out / "README.md").write_text(_student_readme(course, manifest), encoding="utf-8")
    return manifest
