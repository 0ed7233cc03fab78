"""Scripts: every call of a check sent at once (feed.py, stream.py), and exercises whose every
verdict is known scored without running their checks (verdicts.py, fastpath.py, quickcheck.py).

Scores must not depend on it. Each test grades a submission with the class's scripts and again
with every call sent as the check makes it (``use_scripts=False``), and compares whole results:
code that keeps state across calls, hangs in the middle of a check, prints, reads ahead in its
request pipe, and a sample of the catalogue's mistakes.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from autograder import runner, sandbox
from autograder.catalogue import Kind, compose, load_entries
from autograder.model import to_dict
from conftest import CATALOGUE, SOLUTIONS, settings
from test_zygote import reproducible

ISOLATION = sandbox.best_isolation()


@pytest.fixture(scope="module")
def scripted(tmp_path_factory) -> runner.Settings:
    """The settings with the class's scripts, recorded once for the module as grade records them."""
    chosen = settings(isolation=ISOLATION)
    path = runner.record_scripts(chosen, tmp_path_factory.mktemp("scripts") / "scripts.json")
    assert path, "the reference could not be recorded"
    return replace(chosen, scripts=path)


def submission(folder: Path, exercise: str, appended: str) -> Path:
    """The reference's files, with ``appended`` after the reference's own ``exercise``."""
    folder.mkdir(parents=True)
    for path in SOLUTIONS.glob("*.py"):
        shutil.copy(path, folder / path.name)
    target = folder / f"{exercise}.py"
    target.write_text(target.read_text() + "\n\n" + appended)
    return folder


def both_ways(folder: Path, scripted: runner.Settings, **overrides) -> tuple[dict, dict]:
    with_scripts = runner.grade_one(folder.name, folder, replace(scripted, **overrides))
    call_by_call = runner.grade_one(folder.name, folder, replace(scripted, scripts="", use_scripts=False, **overrides))
    return reproducible(to_dict(with_scripts)), reproducible(to_dict(call_by_call))


def statuses(result: dict, exercise: str) -> dict[str, str]:
    return {t["name"]: t["status"] for e in result["exercises"] if e["name"] == exercise for t in e["tests"]}


# Right on its first four calls of each kind, then wrong on every third: a check that makes
# more calls sees a wrong answer, and the worker's count must be what calls one by one leave.
STATEFUL = '''
_calls = [0]
_right = residual_chain_gradient

def residual_chain_gradient(depth, block_slope, residual=True):
    _calls[0] += 1
    value = _right(depth, block_slope, residual)
    return value * 1.5 if _calls[0] > 4 and _calls[0] % 3 == 0 else value
'''


def test_code_that_counts_its_calls_is_graded_as_call_by_call(tmp_path, scripted):
    new, old = both_ways(submission(tmp_path / "counter", "residual", STATEFUL), scripted, exercises=("residual",))
    assert new == old
    assert "failed" in statuses(new, "residual").values()  # the counter did change some answers


# Hangs on the fifth call its worker is asked (a worker after a timeout is a new one, counting
# afresh): the call that hangs times out under its own name, and the checks around it are
# graded as they would be.
HANGS_ON_FIFTH = '''
_calls = [0]
_right = scalar_gradient_chain

def scalar_gradient_chain(depth, layer_scale):
    _calls[0] += 1
    if _calls[0] == 5:
        while True:
            pass
    return _right(depth, layer_scale)
'''


def test_a_call_that_hangs_in_the_middle_of_a_script_times_out_as_that_call(tmp_path, scripted):
    new, old = both_ways(submission(tmp_path / "hangs", "scalar_chain", HANGS_ON_FIFTH), scripted,
                         exercises=("scalar_chain",), call_timeout=0.5)
    assert new == old
    assert {"timeout", "passed"} <= set(statuses(new, "scalar_chain").values())


PRINTS = '''
_right = clip_by_global_norm

def clip_by_global_norm(grads, max_norm):
    print("clipping", len(grads), "arrays at", max_norm)
    return _right(grads, max_norm)
'''


def test_what_correct_code_prints_is_shown_as_call_by_call(tmp_path, scripted):
    new, old = both_ways(submission(tmp_path / "prints", "clipping", PRINTS), scripted, exercises=("clipping",))
    assert new == old
    exercise = next(e for e in new["exercises"] if e["name"] == "clipping")
    assert exercise["score"] == exercise["max_score"]
    printed = [(t.get("output") or {}).get("head", "") for t in exercise["tests"]]
    assert any("clipping 2 arrays at" in text for text in printed), printed


# Reads whatever is waiting in its request pipe before answering: with scripts that is the
# check's later calls. It may wreck its own answers; it must never earn more than call by call.
READS_AHEAD = '''
import os as _os, select as _select
_right = init_std

def init_std(kind, fan_in, fan_out):
    for fd in range(3, 64):
        try:
            while _select.select([fd], [], [], 0)[0]:
                if not _os.read(fd, 1 << 16):
                    break
        except OSError:
            pass
    return _right(kind, fan_in, fan_out)
'''


def test_code_that_reads_ahead_in_its_pipe_earns_no_more_than_call_by_call(tmp_path, scripted):
    new, old = both_ways(submission(tmp_path / "reader", "init_std", READS_AHEAD), scripted, exercises=("init_std",),
                         call_timeout=0.5)
    exercise = {result["id"]: next(e for e in result["exercises"] if e["name"] == "init_std")
                for result in ({**new, "id": "new"}, {**old, "id": "old"})}
    assert exercise["new"]["score"] <= exercise["old"]["score"]
    blamed = [t for e in new["exercises"] for t in e["tests"] if t["status"] == "error"]
    assert blamed == []


def test_a_sample_of_the_catalogues_mistakes_is_graded_as_call_by_call(tmp_path, scripted):
    """The first three mistakes of every exercise, each a submission of its one file."""
    entries = load_entries(CATALOGUE, Kind.MISTAKE)
    chosen = [entry for exercise in sorted({e.exercise for e in entries})
              for entry in [e for e in entries if e.exercise == exercise][:3]]
    students = []
    for entry in chosen:
        folder = tmp_path / f"{entry.exercise}-{entry.path.stem}"
        folder.mkdir()
        reference = (SOLUTIONS / f"{entry.exercise}.py").read_text()
        (folder / f"{entry.exercise}.py").write_text(compose(reference, entry.path.read_text()))
        students.append((folder.name, folder))
    base = replace(scripted, only_submitted=True)
    new = runner.grade_batch(students, base, jobs=2)
    old = runner.grade_batch(students, replace(base, scripts="", use_scripts=False), jobs=2)
    assert [reproducible(to_dict(r)) for r in new] == [reproducible(to_dict(r)) for r in old]
    assert all(r.score < r.max_score for r in new), [(r.id, r.score) for r in new if r.score == r.max_score]


def test_the_reference_is_scored_without_running_its_checks_and_as_call_by_call(tmp_path, scripted, monkeypatch):
    from autograder import fastpath
    answered: list[str] = []
    original = fastpath.grade_exercise

    def counting(config, exercise, items, tests):
        known = original(config, exercise, items, tests)
        answered.extend([exercise] if known else [])
        return known
    monkeypatch.setattr(fastpath, "grade_exercise", counting)
    new, old = both_ways(SOLUTIONS, scripted)
    assert new == old
    assert sorted(answered) == sorted(e["name"] for e in new["exercises"])


CHATTY = '''
import warnings as _warnings
_right_layer, _right_rms = layer_norm, rms_norm

def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    print("layer_norm of", x.shape, "x" * 2000)
    _warnings.warn("a warning about " + "y" * 500)
    return _right_layer(x, eps, gamma, beta)

def rms_norm(x, eps=1e-6, gamma=None):
    print("rms_norm of", x.shape, "x" * 2000)
    return _right_rms(x, eps, gamma)
'''


def test_a_batch_that_fills_up_asks_the_rest_one_by_one_and_grades_as_call_by_call(tmp_path, scripted, monkeypatch):
    """Correct code that prints a lot: its replies fill a batch long before a check's script
    ends (the allowance is cut to a few replies here), which must cost it nothing."""
    from autograder import stream
    monkeypatch.setattr(stream, "BATCH_REPLIES", 0.0004)  # about 13 kB of replies a batch
    full: list[int] = []
    original = stream.run

    def watching(*args, **kwargs):
        batch = original(*args, **kwargs)
        full.extend([batch.stopped.index] if batch.stopped is not None and batch.stopped.how == "full" else [])
        return batch
    monkeypatch.setattr(stream, "run", watching)
    new, old = both_ways(submission(tmp_path / "chatty", "normalization", CHATTY), scripted,
                         exercises=("normalization",))
    assert new == old
    assert len(full) > 3  # batches did fill up, after a few replies each
    exercise = next(e for e in new["exercises"] if e["name"] == "normalization")
    assert exercise["score"] == exercise["max_score"]


def test_what_code_prints_at_import_is_shown_once_and_only_in_its_own_report(tmp_path, scripted):
    """No script's digest covers what a file prints as it is imported: the check that shows it
    runs in pytest, and nothing of it is learned for a classmate whose answers are the same."""
    printer = submission(tmp_path / "printer", "residual", 'print("IMPORT-TIME OUTPUT")\n')
    quiet = submission(tmp_path / "quiet", "residual", "")
    only = replace(scripted, exercises=("residual",))
    results = runner.grade_shard([("printer", printer), ("quiet", quiet)], only)
    shown = {r.id: [t.output.head for e in r.exercises for t in e.tests if t.output is not None] for r in results}
    assert [text for text in shown["printer"] if "IMPORT-TIME OUTPUT" in text] == [shown["printer"][0]]
    assert shown["quiet"] == []
    alone = runner.grade_one("printer", printer, replace(only, scripts="", use_scripts=False))
    assert reproducible(to_dict(results[0])) == reproducible(to_dict(alone))


# Every call takes 50 ms of CPU, within the timeout (0.1 s here), and is wrong: each check fails
# at its first call, and the rest of its script, already sent, is what the worker spends its time on.
STALL = '''
import time as _time


def _stall(*args, **kwargs):
    started = _time.process_time()
    while _time.process_time() - started < 0.05:
        pass
    return None


scalar_gradient_chain = matrix_gradient_norms = init_std = residual_chain_gradient = _stall
layer_norm = rms_norm = clip_by_global_norm = _stall
'''


def test_the_calls_a_check_never_asks_for_cannot_keep_the_grader_waiting_past_the_allowance(tmp_path, scripted,
                                                                                             monkeypatch):
    """A check that fails at its first call leaves the rest of its script unasked: that wait is off
    the student's budgets, so it is charged to the submission's lookahead allowance, and once that
    is spent every call is asked alone (and charged). Here every batch runs until its script ends
    or the budget in force stops it: unbounded, each check of each exercise would wait that long."""
    from autograder import limits, stream
    # A timeout of 0.1 s makes the budgets 2 s an exercise and 6 s a submission (20 and 60 timeouts).
    monkeypatch.setattr(limits.Limits, "exercise_seconds", 1.0)
    monkeypatch.setattr(limits.Limits, "submission_seconds", 1.0)
    waits: list[float] = []
    original = stream.run

    def timed(*args, **kwargs):
        batch = original(*args, **kwargs)
        waits.append(sum(batch.seconds))
        return batch
    monkeypatch.setattr(stream, "run", timed)
    folder = tmp_path / "staller"
    folder.mkdir()
    for path in SOLUTIONS.glob("*.py"):
        (folder / path.name).write_text(STALL)
    result = to_dict(runner.grade_one("staller", folder, replace(scripted, call_timeout=0.1)))
    assert result["score"] < result["max_score"] / 4  # checks that pass on None, such as "inputs unchanged"
    # The submission's budget (6 s), the lookahead allowance (as much) and the one batch that
    # overdrew it (at most an exercise's 2 s budget), with two seconds' slack for the host.
    assert sum(waits) <= 6.0 + 6.0 + 2.0 + 2.0, waits
