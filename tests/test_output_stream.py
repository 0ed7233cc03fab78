"""The class written one student at a time is byte for byte what the whole-batch renderers make.

The sample class is graded once (seed 1); its results.json is read back whole and rendered again
with the renderers that take a whole batch (render_json, render_gradebook, the dashboard from
classview.dashboard_view, each report), and every file the streaming writer wrote must equal them.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

import autograder.jsonstream as jsonstream
from autograder import cli
from autograder.names import report_paths, report_stems
from autograder.render.dashboard import dashboard_files
from autograder.render.documents import render_html, render_markdown
from autograder.render.tables import render_gradebook, render_json
from autograder.stored import index_stored, merge, read_stored
from autograder.view import report_view
from conftest import ROOT

SAMPLE = ROOT / "examples" / "class"
TEMPLATES = ROOT / "templates"
FAST = ("--isolation", "process", "--allow-unsandboxed", "--jobs", "2", "--timeout", "2", "--seed", "1")


def expected_files(batch) -> dict[str, str]:
    """Every output of ``batch`` as the whole-batch renderers make it."""
    files = {"results.json": render_json(batch), "gradebook.csv": render_gradebook(batch)}
    links = report_paths(s.id for s in batch.students)
    files.update(dashboard_files(batch, TEMPLATES, lambda sid: links[sid]))
    stems = report_stems(s.id for s in batch.students)
    for student in batch.students:
        view = report_view(student, batch.seed, student.sandbox or batch.sandbox or batch.isolation,
                           student.graded or batch.created, batch.version)
        files[f"reports/{stems[student.id]}.html"] = render_html(view, TEMPLATES)
        files[f"reports/{stems[student.id]}.md"] = render_markdown(view, TEMPLATES)
    return files


def written_files(out) -> dict[str, str]:
    paths = [p for p in out.rglob("*") if p.is_file() and ".store" not in p.parts]
    return {p.relative_to(out).as_posix(): p.read_bytes().decode("utf-8") for p in paths}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    out = tmp_path_factory.mktemp("stream") / "out"
    assert cli.main(["grade", str(SAMPLE), "--out", str(out), *FAST]) == 0
    return out


def test_every_file_equals_the_whole_batch_rendering(graded):
    batch = read_stored(graded)
    assert len(batch.students) == len([p for p in SAMPLE.iterdir() if p.is_dir()])
    assert any(t.status == "failed" for s in batch.students for e in s.exercises for t in e.tests)
    assert written_files(graded) == expected_files(batch)


def test_a_merged_run_equals_the_whole_batch_merge(graded, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(graded, out)
    before = read_stored(out)
    some = tmp_path / "some"
    for name in ("ben_carter", "hana_sato"):
        shutil.copytree(SAMPLE / name, some / name)
    assert cli.main(["grade", str(some), "--out", str(out), *FAST]) == 0
    after = read_stored(out)
    assert written_files(out) == expected_files(after)
    regraded = [s for s in after.students if s.id in ("ben_carter", "hana_sato")]
    assert after.created != before.created or regraded[0].graded == after.created
    assert after == merge(before, regraded, replace(after, students=()))  # the kept ones exactly as stored


def test_kept_students_are_read_from_a_file_in_any_layout_and_order(graded, tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    data = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    data["students"].reverse()  # a hand-edited file: not sorted, not indented
    (out / "results.json").write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(jsonstream, "_CHUNK", 7)  # values cut at every few characters
    index = index_stored(out)
    assert [e.id for e in index.entries] == [s["id"] for s in data["students"]]
    batch = read_stored(out)
    assert json.loads(render_json(batch))["students"] == data["students"]
    assert index.read(data["students"][-1]["id"]) == batch.students[-1]
