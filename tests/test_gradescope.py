"""Gradescope: the bundle follows the autograder spec and run_autograder writes results.json in
Gradescope's format, checked against a schema written from Gradescope's documentation."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest

from autograder import cli
from conftest import SOLUTIONS

VISIBILITIES = ["hidden", "after_due_date", "after_published", "visible"]
FORMATS = ["text", "html", "simple_format", "md", "ansi"]
# From gradescope-autograders.readthedocs.io, "Autograder Specifications", "Output format".
RESULTS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "anyOf": [{"required": ["score"]}, {"required": ["tests"]}],
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": {"enum": FORMATS},
        "test_output_format": {"enum": FORMATS},
        "test_name_format": {"enum": FORMATS},
        "visibility": {"enum": VISIBILITIES},
        "stdout_visibility": {"enum": VISIBILITIES},
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "score": {"type": "number"},
                "max_score": {"type": "number"},
                "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string"},
                "name_format": {"enum": FORMATS},
                "number": {"type": "string"},
                "output": {"type": "string"},
                "output_format": {"enum": FORMATS},
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": {"enum": VISIBILITIES},
                "extra_data": {"type": "object"},
            },
        }},
        "leaderboard": {"type": "array"},
    },
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gs") / "autograder.zip"
    assert cli.main(["gradescope", str(out)]) == 0
    return out


def install(bundle: Path, root: Path) -> Path:
    """What Gradescope does with the zip: unpack to source/, copy run_autograder beside it."""
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
        mode = archive.getinfo("run_autograder").external_attr >> 16
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", mode)
    return root


def run_autograder(root: Path, files: dict[str, str]) -> dict:
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    for name, text in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(text)
    (root / "submission").mkdir(exist_ok=True)
    env = {**os.environ, "GRADESCOPE_ROOT": str(root), "GRADESCOPE_PYTHON": sys.executable}
    done = subprocess.run([str(root / "run_autograder")], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, RESULTS_SCHEMA)
    return results


def test_bundle_follows_the_spec(bundle):
    with zipfile.ZipFile(bundle) as archive:
        names = set(archive.namelist())
        assert {"setup.sh", "run_autograder", "requirements.txt"} <= names
        assert stat.S_IMODE(archive.getinfo("run_autograder").external_attr >> 16) & 0o111
        assert "kit/solutions/scalar_chain.py" in names
        grader = archive.read("kit/graders/test_clipping.py").decode()
        requirements = archive.read("requirements.txt").decode().splitlines()
    assert "@pytest.mark.hidden" in grader  # the hidden checks travel with the bundle
    assert not any(n.startswith(("kit/tests/", "kit/mutants/")) or "__pycache__" in n for n in names)
    assert any(r.startswith("numpy==") for r in requirements) and all("==" in r for r in requirements)


def test_run_autograder_grades_submissions(bundle, tmp_path):
    root = install(bundle, tmp_path / "autograder")
    reference = {f"{p.stem}.py": p.read_text() for p in SOLUTIONS.glob("*.py")}
    full = run_autograder(root, reference)
    assert full["score"] == sum(t["max_score"] for t in full["tests"]) > 0
    hidden = [t for t in full["tests"] if t["visibility"] == "after_published"]
    assert hidden and all(t["output_format"] == "md" for t in full["tests"])
    assert full["execution_time"] >= 1

    near = run_autograder(root, {"hw/Scalar_Chain.py": reference["scalar_chain.py"],
                                 "hw/clipping.py": reference["clipping.py"]})
    clipping = [t for t in near["tests"] if t["name"].startswith("clipping.py")]
    assert clipping and all(t["score"] == t["max_score"] for t in clipping)
    scalar = [t for t in near["tests"] if t["name"].startswith("scalar_chain.py")]
    assert all(t["score"] == 0 and "Scalar\\_Chain.py" in t["output"] for t in scalar)
    assert "hw/" in near["output"]

    empty = run_autograder(root, {})
    assert empty["score"] == 0 and len(empty["tests"]) == len(full["tests"])
