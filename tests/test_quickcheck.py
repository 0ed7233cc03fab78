"""`check`'s quick way (quickcheck.py): exercises answered exactly as before are reported without
pytest, several at once, and only the others are graded the full way, with the same report.

The reports are compared with `--no-scripts` (every exercise graded call by call in pytest), and
what was graded the full way is read from what the full way was asked to grade.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from autograder import cli, runner, sandbox
from autograder.catalogue import Kind, compose, load_entries
from autograder.quickcheck import in_lanes
from conftest import CATALOGUE, ROOT, SOLUTIONS

SEED = "7"
BROKEN_SYNTAX = "\ndef broken(:\n"


# --- in_lanes: every exercise once, across lanes at once -----------------------------------------

def test_every_name_is_answered_once_by_some_lane_and_unknown_answers_are_kept():
    seen, lock = [], threading.Lock()

    def answer(lane, name):
        with lock:
            seen.append((lane, name))
        return None if name == "c" else [name.upper()]

    answered = in_lanes(["first", "second"], ["a", "b", "c", "d", "e"], answer)
    assert answered == {"a": ["A"], "b": ["B"], "c": None, "d": ["D"], "e": ["E"]}
    assert sorted(name for _lane, name in seen) == ["a", "b", "c", "d", "e"]


def test_the_lanes_answer_at_the_same_time():
    """Two lanes, two names, each answer waiting for the other to start: one lane alone would wait for ever."""
    barrier = threading.Barrier(2, timeout=10)

    def answer(lane, name):
        barrier.wait()
        return [lane]

    answered = in_lanes(["first", "second"], ["a", "b"], answer)
    assert sorted(v[0] for v in answered.values()) == ["first", "second"]


def test_an_error_in_one_lane_stops_the_others_abandons_their_waits_and_is_raised():
    released, abandoned, asked = threading.Event(), [], []

    def answer(lane, name):
        asked.append(name)
        if lane == "second":
            released.wait(10)  # a worker that would answer only once abandoned
            return [name]
        raise OSError("the sandbox cannot start")

    def abandon():
        abandoned.append(True)
        released.set()

    with pytest.raises(OSError, match="cannot start"):
        in_lanes(["first", "second"], ["a", "b", "c", "d"], answer, abandon)
    assert abandoned == [True]
    assert len(asked) <= 2, "a lane took another exercise after the first had failed"


# --- check: quick where answered as before, the full way for the rest ----------------------------

def check(folder: Path, *extra: str) -> tuple[int, dict]:
    """Run check in this process; its exit code and the student of its JSON, without when it was graded."""
    out = folder.parent / f"{folder.name}-{len(list(folder.parent.glob('*.json')))}.json"
    code = cli.main(["check", str(folder), "--seed", SEED, "--json", str(out), *extra])
    student = json.loads(out.read_text())["students"][0]
    return code, {key: value for key, value in student.items() if key != "graded"}


@pytest.fixture
def cache(tmp_path_factory, monkeypatch) -> list:
    """A user cache holding the seed's scripts (recorded once, by checking the reference); the
    exercises each later full-way grading was asked for are listed in what this returns."""
    folder = tmp_path_factory.getbasetemp() / "quickcheck-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    if not folder.is_dir():
        reference = tmp_path_factory.mktemp("reference") / "reference"
        shutil.copytree(SOLUTIONS, reference)
        code, student = check(reference)
        assert code == 0 and student["score"] == student["max_score"]
    graded: list = []
    grade_one = runner.grade_one

    def graded_fully(student_id, folder, settings):
        graded.append(settings.exercises)
        return grade_one(student_id, folder, settings)
    monkeypatch.setattr(runner, "grade_one", graded_fully)
    return graded


def submission(folder: Path, exercise: str, source: str) -> Path:
    shutil.copytree(SOLUTIONS, folder)
    (folder / f"{exercise}.py").write_text(source)
    return folder


MISTAKES = {entry.exercise: entry for entry in load_entries(CATALOGUE, Kind.MISTAKE)}


@pytest.mark.parametrize("exercise,how", [("residual", "a catalogued mistake"), ("clipping", "a catalogued mistake"),
                                          ("init_std", "a syntax error")])
def test_only_the_exercise_answered_otherwise_is_graded_the_full_way_and_the_report_is_the_same(
        tmp_path, cache, capsys, exercise, how):
    reference = (SOLUTIONS / f"{exercise}.py").read_text()
    source = compose(reference, MISTAKES[exercise].path.read_text()) if how == "a catalogued mistake" \
        else reference + BROKEN_SYNTAX
    folder = submission(tmp_path / "student", exercise, source)
    code, partly = check(folder)
    assert code == 1
    assert cache == [(exercise,)], "the exercises answered as before were graded again"
    _, whole = check(folder, "--no-scripts")
    assert cache[-1] == (), "--no-scripts grades every exercise the full way"
    assert partly == whole
    graded = next(e for e in partly["exercises"] if e["name"] == exercise)
    assert graded["score"] < graded["max_score"]
    capsys.readouterr()


def test_a_folder_answered_as_before_in_every_exercise_goes_no_full_way(tmp_path, cache, capsys):
    folder = submission(tmp_path / "student", "residual", (SOLUTIONS / "residual.py").read_text())
    code, quick = check(folder)
    assert code == 0 and cache == []
    _, whole = check(folder, "--no-scripts")
    assert quick == whole
    capsys.readouterr()


def test_a_folder_answered_as_before_is_checked_without_loading_numpy(tmp_path, cache):
    """numpy's import is a tenth of check's wall time and the quick way reads no array: it loads none."""
    folder = submission(tmp_path / "student", "residual", (SOLUTIONS / "residual.py").read_text())
    probe = ("import sys; from autograder import cli; "
             f"code = cli.main(['check', {str(folder)!r}, '--seed', {SEED!r}]); "
             "print('exit', code, 'numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[-1] == "exit 0 False", done.stdout[-2000:] + done.stderr[-2000:]


def test_a_worker_that_cannot_start_gives_the_quick_way_up_and_the_host_is_named(tmp_path, cache, monkeypatch, capsys):
    """The quick way proves no sandbox of its own; where none starts, the full way's proof says so in one sentence."""
    def refuse(*args, **kwargs):
        raise subprocess.SubprocessError("Exception occurred in preexec_fn.")  # what Popen raises
    folder = submission(tmp_path / "student", "residual", (SOLUTIONS / "residual.py").read_text())
    monkeypatch.setattr(sandbox, "_spawn", refuse)
    code = cli.main(["check", str(folder), "--seed", SEED, "--json", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert code == 2 and "cannot be started here" in err and "Traceback" not in err, err
    assert not (tmp_path / "r.json").exists() and cache == []


@pytest.mark.parametrize("slow, charged", [("residual", True), ("clipping", False)])
def test_the_full_way_has_only_what_the_quick_way_left_of_the_submission_budget(tmp_path, cache, monkeypatch, capsys,
                                                                                 slow, charged):
    """A submission's exercises share one time budget whichever way each is answered: a file whose
    import sleeps, answered the quick way, has taken its seconds from what the full way is given;
    one the full way grades again (clipping: a catalogued mistake) is charged there, not twice."""
    source = compose((SOLUTIONS / "clipping.py").read_text(), MISTAKES["clipping"].path.read_text())
    folder = submission(tmp_path / "student", "clipping", source)
    (folder / f"{slow}.py").write_text("import time\ntime.sleep(1.5)\n" + (folder / f"{slow}.py").read_text())
    given, grade_one = [], runner.grade_one
    monkeypatch.setattr(runner, "grade_one", lambda sid, f, s: given.append(s.budget_spent) or grade_one(sid, f, s))
    code, _ = check(folder)
    assert code == 1 and cache == [("clipping",)]
    assert len(given) == 1 and (given[0] >= 1.5) == charged, given
    capsys.readouterr()


def test_a_folder_missing_one_file_is_reported_the_same_on_its_second_check(tmp_path, cache, capsys):
    """The second check answers the five files the quick way and grades only the missing one the full
    way; that one alone holds no exercise file, but the folder does: it is graded, not empty."""
    folder = tmp_path / "student"
    shutil.copytree(SOLUTIONS, folder)
    (folder / "scalar_chain.py").unlink()
    _, first = check(folder, "--no-scripts")
    _, second = check(folder)
    assert cache == [(), ("scalar_chain",)]
    assert second == first and first["status"] == "graded" and first["message"] == ""
    capsys.readouterr()
