"""The class's scripts kept in the user's cache (scriptcache.py): only a recording of the reference
passing every check is kept, or read, since a kept file is used by every later run at its seed."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from autograder import runner, scriptcache
from autograder.script import PLOTS
from conftest import SOLUTIONS, settings


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict:
    """The reference's real recording (every check passed), as the JSON it is kept as."""
    path = Path(runner.record_scripts(settings(), tmp_path_factory.mktemp("recorded") / "scripts.json"))
    return json.loads(path.read_text())


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def recording(data: dict, calls: list):
    """A stand-in for ``runner.record_scripts`` that writes ``data`` and counts its calls."""
    def record(chosen, into: Path) -> str:
        calls.append(chosen.seed)
        into.write_text(json.dumps(data))
        return str(into)
    return record


def without_verdict(data: dict, exercise: str) -> dict:
    """``data`` as if the reference had failed the first check of ``exercise``."""
    copied = json.loads(json.dumps(data))
    del copied["verdicts"]["entries"][copied["checks"][exercise][0]]
    return copied


def without_plots(data: dict, exercise: str) -> dict:
    """``data`` as if the reference's plot calls for ``exercise`` had stopped before the last."""
    copied = json.loads(json.dumps(data))
    copied["verdicts"]["plots"][exercise] = {}
    del copied["scripts"]["calls"][exercise][PLOTS]
    copied["stopped"] = [exercise]
    return copied


def with_a_note(data: dict, exercise: str) -> dict:
    """``data`` as if the reference's plots for ``exercise`` had been drawn in full with a note (a
    call the graders draw although the reference raises on it): nothing learned, every plot drawn."""
    copied = json.loads(json.dumps(data))
    copied["verdicts"]["plots"][exercise] = {}
    del copied["scripts"]["calls"][exercise][PLOTS]
    return copied


def test_a_whole_recording_is_kept_and_read_again_without_recording(cache, recorded):
    calls: list = []
    first = scriptcache.scripts_for(settings(), recording(recorded, calls))
    second = scriptcache.scripts_for(settings(), recording(recorded, calls))
    assert (first, len(calls)) == (second, 1)
    assert json.loads(Path(first).read_text()) == recorded


@pytest.mark.parametrize("exercise", ["scalar_chain", "normalization"])
@pytest.mark.parametrize("damage", [without_verdict, without_plots])
def test_a_recording_where_the_reference_failed_a_check_or_a_plot_is_not_kept(cache, recorded, exercise, damage):
    if damage is without_plots and exercise not in recorded["verdicts"]["plots"]:
        exercise = "scalar_chain"
    calls: list = []
    for _ in range(2):
        assert scriptcache.scripts_for(settings(), recording(damage(recorded, exercise), calls)) == ""
    assert len(calls) == 2, "the second run found a recording kept"
    assert not scriptcache.path_for(settings()).exists()


@pytest.mark.parametrize("damage", ["one verdict missing", "no verdicts", "no checks", "plots stopped",
                                    "an earlier format"])
def test_a_kept_file_without_every_verdict_is_recorded_over(cache, recorded, damage):
    assert recorded["stopped"] == []
    """A file an earlier version kept from a run whose sandbox failed (every check, say) is
    recorded again, and the whole recording replaces it."""
    damaged = without_verdict(recorded, "clipping")
    if damage == "no verdicts":
        damaged["verdicts"]["entries"] = {}
    elif damage == "no checks":
        damaged["checks"] = {}
    elif damage == "plots stopped":
        damaged = without_plots(recorded, "residual")
    elif damage == "an earlier format":  # before the exercises whose plots stopped were written down
        damaged = json.loads(json.dumps(recorded))
        del damaged["stopped"]
    kept = scriptcache.path_for(settings())
    kept.parent.mkdir(parents=True)
    kept.write_text(json.dumps(damaged))
    calls: list = []
    assert scriptcache.scripts_for(settings(), recording(recorded, calls)) == str(kept)
    assert len(calls) == 1
    assert json.loads(kept.read_text()) == recorded


def test_a_reference_that_fails_a_check_leaves_nothing_in_the_cache(cache, tmp_path):
    reference = tmp_path / "reference"
    shutil.copytree(SOLUTIONS, reference)
    source = reference / "init_std.py"
    source.write_text(source.read_text() + "\n\ndef init_std(kind, fan_in, fan_out):\n    return 1.0\n")
    chosen = settings(reference_dir=reference)
    assert scriptcache.scripts_for(chosen, runner.record_scripts) == ""
    assert not scriptcache.path_for(chosen).exists()
    assert not [p for p in (cache / "gradient-kit" / "scripts").iterdir() if p.suffix == ".json"]


# Right on every call but one: the fifth a worker is asked, when it is the plot's (4, 0.25), never returns.
HANGS_IN_ITS_PLOT = '''
_calls = [0]


def scalar_gradient_chain(depth, layer_scale):
    _calls[0] += 1
    if _calls[0] == 5 and depth == 4 and layer_scale == 0.25:
        while True:
            pass
    return float(layer_scale) ** depth
'''


def test_a_reference_whose_plot_call_hangs_learns_no_plots_and_leaves_nothing_in_the_cache(cache, tmp_path):
    """The calls before the one that hung are answered by code that does not hang too: learned,
    they would give its report no plot."""
    reference = tmp_path / "reference"
    shutil.copytree(SOLUTIONS, reference)
    (reference / "scalar_chain.py").write_text(HANGS_IN_ITS_PLOT)
    chosen = settings(reference_dir=reference, call_timeout=1.0)
    recorded = json.loads(Path(runner.record_scripts(chosen, tmp_path / "scripts.json")).read_text())
    assert all(recorded["verdicts"]["entries"].get(n) for n in recorded["checks"]["scalar_chain"]), \
        "the checks must pass: only the plot hangs"
    assert recorded["verdicts"]["plots"]["scalar_chain"] == {}
    assert PLOTS not in recorded["scripts"]["calls"]["scalar_chain"]
    assert recorded["stopped"] == ["scalar_chain"]
    assert recorded["verdicts"]["plots"]["residual"], "the other exercises' plots are learned as before"
    assert scriptcache.scripts_for(chosen, runner.record_scripts) == ""
    assert not scriptcache.path_for(chosen).exists()


def test_the_folder_keeps_the_last_month_at_most_max_files_and_no_half_written_file(cache, recorded, monkeypatch):
    """check's seed is the day's: a student who checks every day would keep a file a day."""
    monkeypatch.setattr(scriptcache, "MAX_FILES", 3)
    folder = scriptcache.folder()
    folder.mkdir(parents=True)
    now = time.time()

    def planted(name: str, age: float) -> None:
        (folder / name).write_text("{}")
        os.utime(folder / name, (now - age, now - age))
    for minutes, name in enumerate(["a.json", "b.json", "c.json", "d.json"], start=1):
        planted(name, minutes * 60)
    planted("ancient.json", 40 * 24 * 3600)
    planted(".partial-killed.json", 2 * 3600)  # left by a run killed while it recorded
    planted(".partial-now.json", 60)  # another run recording now
    planted("notes.txt", 40 * 24 * 3600)
    kept = Path(scriptcache.scripts_for(settings(), recording(recorded, [])))
    assert sorted(p.name for p in folder.iterdir()) == sorted([kept.name, "a.json", "b.json", ".partial-now.json",
                                                              "notes.txt"])


def test_a_kept_file_read_again_counts_as_used(cache, recorded, monkeypatch):
    monkeypatch.setattr(scriptcache, "MAX_FILES", 2)
    kept = Path(scriptcache.scripts_for(settings(), recording(recorded, [])))
    os.utime(kept, (time.time() - 3600,) * 2)
    (kept.parent / "newer.json").write_text("{}")
    assert scriptcache.scripts_for(settings(), recording(recorded, [])) == str(kept)  # read, not recorded
    scriptcache.scripts_for(settings(seed=2), recording(recorded, []))  # a third file: one must go
    assert kept.exists() and not (kept.parent / "newer.json").exists()


def test_a_recording_whose_plots_were_drawn_in_full_with_a_note_is_kept(cache, recorded):
    """Its plots are drawn call by call (the note may be a student's); every check stays quick."""
    calls: list = []
    first = scriptcache.scripts_for(settings(), recording(with_a_note(recorded, "residual"), calls))
    assert first and scriptcache.scripts_for(settings(), recording(recorded, calls)) == first
    assert len(calls) == 1


def test_a_recording_that_cannot_be_put_in_place_is_not_used_and_grading_goes_on(cache, recorded, monkeypatch):
    def refused(source, target):
        raise PermissionError(13, "Permission denied", str(target))
    monkeypatch.setattr(scriptcache.os, "replace", refused)
    assert scriptcache.scripts_for(settings(), recording(recorded, [])) == ""
    graded = scriptcache.keep_own(settings(), lambda into: into.write_text(json.dumps(recorded)) and Graded())
    assert isinstance(graded, Graded)
    assert not [p for p in scriptcache.folder().iterdir() if p.suffix == ".json"]


class Graded:
    """A stand-in for a student's result: keep_own asks only for its exercises' checks."""

    exercises = ()
