"""Several students in one pytest session (shard.py): the same results as one session per student.

A shard collects the graders once and runs every check once per student, tearing every fixture
down (the warm sandbox and the time budget included) after each student's last check. These tests
grade the sample class, hostile and wrong submissions among them, both ways and compare; plant
state in one student and look for it in the next of the same session; and break the session to see
that only the students it did not finish are graded again, each in a session of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from autograder import runner, sandbox, shard, zygote
from autograder.catalogue import Kind, compose, load_entries
from autograder.model import host_failed, to_dict
from conftest import CATALOGUE, ROOT, SOLUTIONS, settings
from test_zygote import ZYGOTE_MODES, assert_graded_alike, planting_submission, reproducible, scores

ATTACKS = ("sleep_forever", "zygote_tamper", "exit_at_import")  # a hang, a tamperer, a file that does not import
# The class is graded twice and compared exactly, and one of its students (hana_sato) loops until
# 3 s of CPU time stop each call, under a 13 s wall-clock backstop and a 60 s budget per exercise.
# With the suite's other worker grading hostile code beside it on two cores, such a call could get
# under a quarter of a core: the wall clock, not the CPU limit, would stop it in one grading only.
# So the tests that grade the class (the first one builds the `alone` fixture) run alone.


@pytest.fixture(scope="module")
def students(tmp_path_factory) -> list[tuple[str, Path]]:
    """The sample class, a copy of one of its students graded later in the same session, a known
    mistake from the catalogue, and hostile submissions (each attack's files over correct ones)."""
    root = tmp_path_factory.mktemp("shard-class")
    chosen = sorted((p.name, p) for p in (ROOT / "examples" / "class").iterdir() if p.is_dir())
    again = root / "eli_again"  # fails public checks, so Hypothesis shrinks again in the same process
    shutil.copytree(ROOT / "examples" / "class" / "eli_novak", again)
    chosen.append(("eli_again", again))
    mistake = load_entries(CATALOGUE, Kind.MISTAKE)[0]
    folder = root / "mistake"
    shutil.copytree(SOLUTIONS, folder)
    (folder / f"{mistake.exercise}.py").write_text(
        compose((SOLUTIONS / f"{mistake.exercise}.py").read_text(), mistake.path.read_text()))
    chosen.append(("mistake", folder))
    for attack in ATTACKS:
        folder = root / attack
        shutil.copytree(SOLUTIONS, folder)
        for source in (ROOT / "tests" / "attacks" / attack).glob("*.py"):
            shutil.copy(source, folder / source.name)
        chosen.append((attack, folder))
    chosen.insert(3, ("correct", SOLUTIONS))  # the hostile and broken ones before and after honest ones
    return chosen


@pytest.fixture(scope="module")
def alone(students) -> list[dict]:
    """Each student graded in a pytest session of its own, as before shards: two at a time, in
    processes of their own, since each session is apart from every other anyway."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        return [reproducible(graded) for graded in pool.map(graded_alone, students)]


def graded_alone(student: tuple[str, Path]) -> dict:
    return to_dict(runner.grade_one(*student, settings(seed=1)))


@pytest.fixture
def sessions(monkeypatch) -> list[str]:
    """The folders graded in a session of their own (the shard's fallback), in order."""
    graded: list[str] = []
    original = runner.run_pytest

    def counting(submission, chosen):
        graded.append(submission.name)
        return original(submission, chosen)
    monkeypatch.setattr(runner, "run_pytest", counting)
    return graded


@pytest.mark.alone  # see the note at ATTACKS
def test_one_session_grades_a_whole_class_as_one_session_per_student_does(students, alone, sessions):
    done: list[str] = []
    results = runner.grade_shard(students, settings(seed=1), lambda result: done.append(result.id))
    assert sessions == []  # no student needed a session of its own
    assert done == [sid for sid, _folder in students]
    assert_graded_alike([reproducible(to_dict(r)) for r in results], alone)
    first, again = (next(reproducible(to_dict(r)) for r in results if r.id == sid) for sid in ("eli_novak", "eli_again"))
    assert {**first, "id": ""} == {**again, "id": ""}
    assert any(t["status"] == "timeout" for r in alone if r["id"] == "sleep_forever"
               for e in r["exercises"] for t in e["tests"])


@pytest.mark.alone  # see the note at ATTACKS
def test_a_pool_of_shards_grades_as_one_session_per_student_does(students, alone, sessions):
    picked = [i for i, (sid, _folder) in enumerate(students)
              if sid in {"amara_okafor", "hana_sato", "gus_mueller", "mistake", "sleep_forever", "zygote_tamper"}]
    chosen = [students[i] for i in picked]
    done: list[str] = []
    results = runner.grade_batch(chosen, settings(seed=1, shard_size=2), jobs=2,
                                 on_done=lambda result: done.append(result.id))
    assert sorted(done) == sorted(sid for sid, _folder in chosen)  # each once, as soon as it was known
    assert_graded_alike([reproducible(to_dict(r)) for r in results], [alone[i] for i in picked])


@pytest.mark.parametrize("mode", ZYGOTE_MODES)
def test_state_planted_by_one_student_is_invisible_to_the_next_in_the_same_session(mode, tmp_path, sessions,
                                                                                   monkeypatch):
    started: list[int] = []
    original = zygote.Zygote._start

    def counting(self):
        started.append(id(self))
        return original(self)
    monkeypatch.setattr(zygote.Zygote, "_start", counting)
    honest = scores(runner.grade_one("honest", SOLUTIONS, settings(isolation=mode, workers="fresh")))
    started.clear()
    sessions.clear()
    planters = [(name, planting_submission(tmp_path / name, mode)) for name in ("first", "second", "third")]
    results = runner.grade_shard(planters, settings(isolation=mode))
    assert sessions == []
    assert [scores(r) for r in results] == [honest] * 3
    # Each planter changes its zygote from inside (a resource limit, its niceness): it is never
    # forked from again, and the session's next worker comes from a warm sandbox started afresh.
    assert len(started) > 3


def test_a_session_that_fails_leaves_only_the_students_it_did_not_finish_to_sessions_of_their_own(
        students, alone, sessions, monkeypatch):
    chosen = [students[0], students[1], students[2]]
    original = shard.begin_submission

    def failing(config, folder, **kwargs):
        if folder == chosen[1][1]:
            raise RuntimeError("a bug in the grader")
        original(config, folder, **kwargs)
    monkeypatch.setattr(shard, "begin_submission", failing)
    results = runner.grade_shard(chosen, settings(seed=1))
    assert sessions == [chosen[1][1].name, chosen[2][1].name]
    assert [reproducible(to_dict(r)) for r in results] == alone[:3]


def test_a_result_that_cannot_be_read_costs_only_that_students_row(students, alone, monkeypatch):
    chosen = students[:3]
    original = runner._parsed

    def failing(student_id, folder, report, chosen_settings):
        if student_id == chosen[1][0]:
            raise ValueError("an unreadable report")
        return original(student_id, folder, report, chosen_settings)
    monkeypatch.setattr(runner, "_parsed", failing)
    results = runner.grade_shard(chosen, settings(seed=1))
    assert results[1].status == "error" and "unreadable report" in results[1].message
    assert [reproducible(to_dict(r)) for r in (results[0], results[2])] == [alone[0], alone[2]]


def test_a_link_or_a_file_is_refused_in_a_shard_without_stopping_the_others(tmp_path, sessions):
    link = tmp_path / "link"
    link.symlink_to(SOLUTIONS)
    results = runner.grade_shard([("link", link), ("correct", SOLUTIONS), ("file", SOLUTIONS / "residual.py")],
                                 settings(isolation=sandbox.best_isolation()))
    assert [r.status for r in results] == ["error", "graded", "error"]
    assert "symbolic link" in results[0].message and "not a folder" in results[2].message
    assert results[1].score == results[1].max_score and sessions == []


@pytest.mark.parametrize("count, size, jobs, expected", [
    (13, 8, 1, [8, 5]), (13, 8, 2, [7, 6]), (40, 8, 2, [8] * 5), (3, 8, 4, [1, 1, 1]), (5, 1, 1, [1] * 5), (0, 8, 2, []),
])
def test_shards_are_at_most_the_size_asked_and_give_every_job_one(count, size, jobs, expected):
    students = [(str(n), Path(str(n))) for n in range(count)]
    cut = runner.shards(students, size, jobs)
    assert [len(s) for s in cut] == expected
    assert [s for part in cut for s in part] == students


def test_only_the_submitted_exercises_run_for_each_student_of_a_shard(tmp_path, sessions):
    partial = tmp_path / "partial"
    partial.mkdir()
    shutil.copy(SOLUTIONS / "residual.py", partial / "residual.py")
    chosen = [("partial", partial), ("all", SOLUTIONS)]
    validating = settings(seed=1, only_submitted=True)
    results = runner.grade_shard(chosen, validating)
    assert sessions == []
    assert [e.name for e in results[0].exercises] == ["residual"]
    assert [to_dict(r)["exercises"] for r in results] == [
        to_dict(runner.grade_one(sid, folder, validating))["exercises"] for sid, folder in chosen]


def test_a_result_the_caller_cannot_take_stops_the_shard_with_the_callers_error(sessions):
    taken: list[str] = []

    def full_disk(result):
        taken.append(result.id)
        raise OSError(28, "No space left on device")
    with pytest.raises(OSError, match="No space left"):
        runner.grade_shard([("first", SOLUTIONS), ("second", SOLUTIONS)], settings(seed=1), full_disk)
    assert taken == ["first"] and sessions == []  # nobody graded again alone, nobody after it


def test_a_grader_that_does_not_load_leaves_each_student_to_a_session_of_its_own(tmp_path, sessions):
    graders = tmp_path / "graders"
    shutil.copytree(ROOT / "graders", graders)
    (graders / "test_residual.py").write_text("def broken(:\n")
    broken = settings(seed=1, graders_dir=graders)
    chosen = [("first", SOLUTIONS), ("second", ROOT / "examples" / "class" / "ben_carter")]
    results = runner.grade_shard(chosen, broken)
    assert sessions == ["solutions", "ben_carter"]
    assert [to_dict(r) for r in results] == [to_dict(runner.grade_one(sid, folder, broken)) for sid, folder in chosen]
    assert {e.status for e in results[0].exercises} == {"error"}
    # The kit's failure, not the student's: withheld (never stored, exit 4), and validate counts no kill.
    assert all(host_failed(e) for e in results[0].exercises)


def test_each_kits_graders_are_its_own_when_several_grade_in_one_process(tmp_path):
    # pytest leaves a grader in sys.modules under its file's name and its folder on sys.path: a
    # second kit in the same process (validate on another root, a cluster worker after the graders
    # changed) met the first one's test_scalar_chain, collected nothing and scored no checks.
    kits = {}
    for name in ("first", "second"):
        kits[name] = tmp_path / name / "graders"
        shutil.copytree(ROOT / "graders", kits[name])
    for name in ("first", "second", "first"):  # back to the first: its folder is on sys.path, behind the second's
        result = runner.grade_one(name, SOLUTIONS, settings(seed=1, graders_dir=kits[name], exercises=("scalar_chain",),
                                                            isolation="process"))
        (exercise,) = [e for e in result.exercises if e.name == "scalar_chain"]
        assert (exercise.status, exercise.score) == ("graded", exercise.max_score) and exercise.max_score > 0, \
            (name, exercise.message)


@pytest.mark.parametrize("size, expected", [(None, [4]), ("3", [3, 1])])
def test_grade_shard_size_option_sets_how_many_students_share_a_session(size, expected, tmp_path, monkeypatch, capsys):
    from autograder import cli
    seen: list[int] = []
    original = runner.run_shard

    def counting(folders, chosen, on_report):
        seen.append(len(folders))
        return original(folders, chosen, on_report)
    monkeypatch.setattr(runner, "run_shard", counting)
    argv = ["grade", str(ROOT / "examples" / "class"), "--out", str(tmp_path / "out"), "--jobs", "1", "--seed", "1",
            "--isolation", "process", "--allow-unsandboxed", "--only", "amara_okafor", "eli_novak", "hana_sato",
            "gus_mueller"]
    code = cli.main(argv + (["--shard-size", size] if size else []))
    capsys.readouterr()
    assert code == 0 and seen == expected


def test_the_spool_gives_each_posted_result_back_whole_and_in_order_and_skips_what_it_cannot_read(tmp_path):
    # A pool process posts each result as a file: no manager, so no thread a student's code could starve.
    from dataclasses import replace

    from autograder import pool
    graded = runner.grade_one("zoe", SOLUTIONS, settings(seed=1, exercises=("scalar_chain",), isolation="process"))
    other = replace(graded, id="ann", score=0.0)
    pool._post(tmp_path, graded)
    pool._post(tmp_path, other)
    (tmp_path / "0-cut-short.part").write_text("{")  # a post its process did not finish: never renamed
    (tmp_path / "1-unreadable.json").write_text('{"id": 3}')  # left to the task's returned list
    pool._post(tmp_path, replace(graded, id="stranger"))  # not in this run: never arrives (it would crash the run)
    (tmp_path / "2-a-folder.json").mkdir()  # what a file of the student's own could look like
    os.mkfifo(tmp_path / "3-a-fifo.json")  # reading it would wait for a writer forever
    got = []
    pool._drain(tmp_path, got.append, {"zoe", "ann"})
    assert [to_dict(r) for r in got] == [to_dict(graded), to_dict(other)] and graded.exercises
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0-cut-short.part", "2-a-folder.json"]  # the FIFO went
