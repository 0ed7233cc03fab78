"""The store and the submission's shared time budget: a kept result stands only where a partial
regrade gives what grading the whole submission again would, and each exercise's budget spent
reaches the store (never results.json or a report)."""

from __future__ import annotations

import json
import shutil

import pytest

from autograder import cli
from autograder.budget import Budget
from autograder.client import StudentModule
from autograder.fingerprint import exercise_keys, grader_keys
from autograder.incremental import plan
from autograder.limits import Limits
from autograder.model import CheckResult, ExerciseResult, Status
from autograder.runner import grade_one, grade_shard
from autograder.store import STORE, ResultStore, Stored
from autograder.verdicts import Verdicts
from conftest import COURSE, GRADERS, ROOT, SOLUTIONS, settings

SAMPLE = ROOT / "examples" / "class"
LIMITS = Limits()  # 60 s an exercise, 180 s the submission
NAMES = tuple(e.name for e in COURSE)


def stored_as(student, store, spent, changed=(), timed_out=()):
    """The store as a past run left it: every exercise graded under its key today except ``changed``
    (its file edited since), each having spent ``spent[name]`` seconds of the shared budget."""
    keys = exercise_keys(student, COURSE, grader_keys(GRADERS, SOLUTIONS, COURSE, (7, "process", 2.0, 1024)), 1 << 20)
    records = {}
    for name in NAMES:
        status = Status.TIMEOUT if name in timed_out else Status.PASSED
        check = CheckResult("a_check", "", 1.0 if status is Status.PASSED else 0.0, 1.0, status)
        result = ExerciseResult(name, name, check.score, 1.0, "graded", (check,), budget_spent=spent.get(name, 0.1))
        records[name] = Stored("edited since" if name in changed else keys[name], result, "2026-12-01T00:00:00+00:00", "process")
    store.write("amara", records)
    return keys


def planned(student, store):
    keys = grader_keys(GRADERS, SOLUTIONS, COURSE, (7, "process", 2.0, 1024))
    tasks, _keys = plan([("amara", student)], COURSE, keys, store, LIMITS)
    return [t.exercises for t in tasks]


@pytest.fixture
def student(tmp_path):
    return shutil.copytree(SAMPLE / "amara_okafor", tmp_path / "amara")


@pytest.mark.parametrize("spent, regraded", [
    ({name: 1.0 for name in NAMES}, ("clipping",)),  # twice 5 s kept + at most 60 s + 10 s: within 180 s
    ({name: 10.0 for name in NAMES}, ("clipping",)),  # twice 50 s kept + 70 s: just within
    ({name: 12.0 for name in NAMES}, NAMES),  # twice 60 s kept + 70 s: the regraded one could run out
    ({"scalar_chain": 60.0}, NAMES),  # one kept exercise took a third of it
    ({"clipping": 170.0}, ("clipping",)),  # the one regraded took it: what it takes now decides
    ({"scalar_chain": -500.0}, NAMES),  # a record that says less than nothing is not trusted
])
def test_one_changed_file_is_regraded_alone_only_where_the_shared_budget_cannot_run_out(tmp_path, student, spent, regraded):
    store = ResultStore(tmp_path / "out")
    stored_as(student, store, spent, changed=("clipping",))
    assert planned(student, store) == [regraded]


@pytest.mark.parametrize("each, regraded", [
    (5.0, ("init_std", "clipping")),  # twice 20 s kept + 2 x 60 s + 10 s
    (7.0, NAMES),  # twice 28 s kept + 130 s: over 180 s
])
def test_each_regraded_exercise_counts_at_the_most_it_may_take(tmp_path, student, each, regraded):
    store = ResultStore(tmp_path / "out")
    stored_as(student, store, {name: each for name in NAMES}, changed=("init_std", "clipping"))
    assert planned(student, store) == [regraded]


def test_a_kept_timeout_regrades_the_whole_submission(tmp_path, student):
    store = ResultStore(tmp_path / "out")
    stored_as(student, store, {}, changed=("clipping",), timed_out=("residual",))
    assert planned(student, store) == [NAMES]


def test_an_unchanged_submission_is_kept_whatever_it_spent(tmp_path, student):
    store = ResultStore(tmp_path / "out")
    stored_as(student, store, {name: 30.0 for name in NAMES})
    assert planned(student, store) == []


def test_the_budget_an_exercise_spent_is_stored_and_never_shown(tmp_path):
    """Through the pool's processes, as a class is graded: a file whose import sleeps 1.5 s."""
    submissions = tmp_path / "class"
    for name in ("amara_okafor", "ben_carter"):
        shutil.copytree(SAMPLE / name, submissions / name)
    slow = submissions / "amara_okafor" / "residual.py"
    slow.write_text("import time\ntime.sleep(1.5)\n" + slow.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["grade", str(submissions), "--out", str(out), "--isolation", "process", "--allow-unsandboxed",
                     "--seed", "7", "--jobs", "2"]) == 0
    spent = {}
    for record in (out / STORE).glob("*.json"):
        data = json.loads(record.read_text(encoding="utf-8"))
        if record.name != "run.json":
            spent[data["id"]] = {name: e["result"]["budget_spent"] for name, e in data["exercises"].items()}
    assert spent["amara_okafor"]["residual"] >= 1.5
    assert all(0 < seconds < 1.5 for name, seconds in spent["amara_okafor"].items() if name != "residual"), spent
    assert all(0 <= seconds < 1.5 for seconds in spent["ben_carter"].values()), spent  # a missing file waits on nothing
    shown = [p for p in out.rglob("*") if p.is_file() and STORE not in p.parts]
    assert {"results.json", "gradebook.csv", "amara_okafor.html"} <= {p.name for p in shown}
    assert [p.name for p in shown if b"budget_spent" in p.read_bytes()] == []


def test_a_known_verdict_carries_the_budget_of_the_student_answered_never_the_first_one():
    """The reference (or the first student) that passed a check first may have been slow; a report
    entry learned from it carries none of its budget, only the one the exercise's last check is given."""
    verdicts = Verdicts()
    verdicts.learn_entry("test_clipping.py::test_a", {"nodeid": "test_clipping.py::test_a", "outcome": "passed",
                                                     "metadata": {"status": "passed", "budget_spent": 40.0}})
    assert "budget_spent" not in verdicts.entry("test_clipping.py::test_a", None)["metadata"]
    assert verdicts.entry("test_clipping.py::test_a", None, spent=0.25)["metadata"]["budget_spent"] == 0.25


def test_an_exercise_that_saw_the_submission_budget_run_out_counts_as_having_spent_it_all(tmp_path):
    """What ran then may have been cut short (a plot) with no check timed out to show it."""
    shared = Budget(LIMITS.submission_seconds, "your whole submission")
    module = StudentModule(tmp_path / "residual.py", "residual", "process", LIMITS, submission_budget=shared)
    shared.charge(100.0)
    assert module.budget_spent == 0.0  # its own share: none
    shared.charge(80.0)
    assert module.budget_spent == LIMITS.submission_seconds


def slow_copy(into):
    """amara_okafor's correct files, each of whose import sleeps 1.5 s."""
    folder = shutil.copytree(SAMPLE / "amara_okafor", into)
    for name in NAMES:
        slow = folder / f"{name}.py"
        slow.write_text("import time\ntime.sleep(1.5)\n" + slow.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_a_session_given_the_budget_already_spent_has_only_the_rest(tmp_path):
    """check's full way after its quick way: files whose import sleeps 1.5 s, with 1 s left."""
    result = grade_one("amara", slow_copy(tmp_path / "amara"), settings(seed=7, isolation="process", budget_spent=179.0))
    assert {t.status for e in result.exercises for t in e.tests} == {Status.TIMEOUT}
    said = [t.message or e.problem.message for e in result.exercises for t in e.tests]
    assert all("180 seconds it may run for your whole submission" in m for m in said), said


def test_the_budget_already_spent_is_the_first_submissions_alone(tmp_path):
    """A session of several submissions: the next one has its whole budget, as always."""
    students = [(name, slow_copy(tmp_path / name)) for name in ("first", "second")]
    first, second = grade_shard(students, settings(seed=7, isolation="process", budget_spent=179.0))
    assert first.score == 0 and second.score == second.max_score > 0
