"""Incremental, resumable grading: nothing graded twice, nothing lost to a kill, same results either way."""

from __future__ import annotations

import concurrent.futures
import functools
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from autograder import cli
from autograder.fingerprint import exercise_keys, grader_keys
from autograder.incremental import grade_incrementally
from autograder.model import to_dict
from autograder.runner import grade_one
from autograder.store import STORE, ResultStore
from autograder.submission import look, pin_folders
from conftest import COURSE, GRADERS, ROOT, SOLUTIONS, settings
from test_lifetimes import SLEEPER, is_worker, tagged, wait_for

SAMPLE = ROOT / "examples" / "class"
FAST = ("--isolation", "process", "--allow-unsandboxed", "--timeout", "2", "--seed", "7")
TERMS = (7, "process", 2.0, 1024)


def make_class(into, *names):
    into.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copytree(SAMPLE / name, into / name)
    return into


def without_times(out):
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    data.pop("created")
    for student in data["students"]:
        student.pop("graded")
    return data


def graded_now(stdout):
    return int(stdout.rsplit("(", 1)[1].split(" graded now")[0])


def grade(capsys, submissions, out, *extra, seed=("--seed", "7")):
    code = cli.main(["grade", str(submissions), "--out", str(out), *FAST[:-2], *seed, *extra])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """Three students graded in one uninterrupted run with one job: what every other way must equal."""
    base = tmp_path_factory.mktemp("incremental")
    submissions = make_class(base / "class", "amara_okafor", "ben_carter", "fatima_haddad")
    assert cli.main(["grade", str(submissions), "--out", str(base / "out"), *FAST, "--jobs", "1"]) == 0
    return submissions, base / "out"


def test_two_jobs_write_the_same_results_as_one(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    grade(capsys, submissions, tmp_path / "out", "--jobs", "2")
    assert without_times(tmp_path / "out") == without_times(out)


def test_a_rerun_of_a_finished_class_grades_nobody_and_keeps_every_output(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    shutil.copytree(out, tmp_path / "out")
    (tmp_path / "out" / "reports" / "ben_carter.html").unlink()  # outputs are rewritten from the store
    text = grade(capsys, submissions, tmp_path / "out", "--jobs", "1")
    assert graded_now(text) == 0 and "3 kept" in text
    # even each student's grading time is the stored one: only the run's own time is new
    assert [json.loads((folder / "results.json").read_text())["students"] for folder in (tmp_path / "out", out)] \
        == [json.loads((out / "results.json").read_text())["students"]] * 2
    assert (tmp_path / "out" / "reports" / "ben_carter.html").read_bytes() == (out / "reports" / "ben_carter.html").read_bytes()


def test_a_changed_submission_is_regraded_and_only_it(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    shutil.copytree(out, tmp_path / "out")
    changed = make_class(tmp_path / "class", "amara_okafor", "ben_carter", "fatima_haddad")
    shutil.copy(SOLUTIONS / "clipping.py", changed / "ben_carter" / "clipping.py")
    text = grade(capsys, changed, tmp_path / "out", "--jobs", "1")
    assert graded_now(text) == 1
    before = {s["id"]: s for s in without_times(out)["students"]}
    after = {s["id"]: s for s in without_times(tmp_path / "out")["students"]}
    assert after["amara_okafor"] == before["amara_okafor"] and after["fatima_haddad"] == before["fatima_haddad"]
    assert after["ben_carter"]["score"] > before["ben_carter"]["score"]


def test_fresh_ignores_the_store(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    shutil.copytree(out, tmp_path / "out")
    text = grade(capsys, submissions, tmp_path / "out", "--jobs", "2", "--fresh")
    assert graded_now(text) == 3
    assert without_times(tmp_path / "out") == without_times(out)


def start_grade(submissions, target, *extra, tag="", stderr=subprocess.DEVNULL):
    """`grade.py grade` in a session of its own, as a terminal runs a command in its own process group."""
    command = [sys.executable, str(ROOT / "grade.py"), "grade", str(submissions), "--out", str(target), *FAST,
               "--jobs", "1", *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT), **({"GRADER_RUN_TAG": tag} if tag else {})}
    # A command started in the background of a script (as CI may run this suite) inherits SIGINT
    # ignored, and Python then never raises KeyboardInterrupt: give the run a terminal's default.
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
                            preexec_fn=functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL))


def wait_until_a_student_is_stored(child, target, *extra, also=lambda: True):
    """Return once the run has stored a student it graded itself (and ``also`` holds)."""
    store = target / STORE
    before = {p.name for p in store.glob("*.json")} if store.is_dir() else set()
    deadline = time.monotonic() + 120

    def stored_now():
        # a --fresh run first forgets the store and marks itself as replacing the results
        fresh = "--fresh" not in extra or b'"replacing": true' in (store / "run.json").read_bytes()
        return fresh and [p for p in store.glob("*.json") if p.name != "run.json" and
                          ("--fresh" in extra or p.name not in before)]
    while not (store.is_dir() and (store / "run.json").is_file() and stored_now() and also()):
        assert child.poll() is None, "the run ended before any student was stored"
        assert time.monotonic() < deadline, "no student was stored in two minutes"
        time.sleep(0.05)


def kill_once_a_student_is_stored(submissions, target, *extra):
    """Start `grade.py grade` and SIGKILL it, with everything it started, once its first student is stored."""
    child = start_grade(submissions, target, *extra)
    try:
        wait_until_a_student_is_stored(child, target, *extra)
    finally:
        os.killpg(child.pid, signal.SIGKILL)  # the run and every process it started
        child.wait()


def test_a_run_killed_halfway_resumes_and_ends_as_an_uninterrupted_run(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    target = tmp_path / "out"
    kill_once_a_student_is_stored(submissions, target)
    assert not (target / "results.json").exists()  # it really was stopped halfway
    text = grade(capsys, submissions, target, "--jobs", "1")
    assert 1 <= graded_now(text) <= 2 and "3 kept" not in text
    assert without_times(target) == without_times(out)
    assert sorted(p.name for p in (target / "reports").iterdir()) == sorted(p.name for p in (out / "reports").iterdir())


def test_a_killed_fresh_run_resumes_on_its_own_terms(capsys, reference_run, tmp_path):
    submissions, out = reference_run
    shutil.copytree(out, tmp_path / "out")
    gone = make_class(tmp_path / "class", "amara_okafor", "ben_carter")  # fatima is dropped by --fresh
    kill_once_a_student_is_stored(gone, tmp_path / "out", "--fresh", "--seed", "8")
    text = grade(capsys, gone, tmp_path / "out", "--jobs", "1", seed=())  # no --seed: the stopped run's
    assert graded_now(text) == 1
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["seed"] == 8 and [s["id"] for s in results["students"]] == ["amara_okafor", "ben_carter"]
    assert not (tmp_path / "out" / "reports" / "fatima_haddad.html").exists()


def ctrl_c_once_a_student_is_stored(submissions, target, tag, jobs, stderr_path, settle=0.0):
    """Start `grade.py grade`, send the terminal's Ctrl-C once a student is stored while a worker
    grades another, and return its exit code and stderr."""
    with open(stderr_path, "wb") as stderr:
        child = start_grade(submissions, target, "--jobs", jobs, tag=tag, stderr=stderr)
        try:
            wait_until_a_student_is_stored(child, target, also=lambda: any(is_worker(c) for _p, c in tagged(tag)))
            time.sleep(settle)
            os.killpg(child.pid, signal.SIGINT)  # what a terminal sends: the whole foreground group
            code = child.wait(timeout=60)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    return code, stderr_path.read_text(encoding="utf-8")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_stopped_with_ctrl_c_says_so_leaves_nothing_behind_and_resumes(capsys, reference_run, tmp_path, jobs):
    submissions, out = reference_run
    target, tag = tmp_path / "out", f"ctrl-c-{os.getpid()}-{jobs}"
    code, err = ctrl_c_once_a_student_is_stored(submissions, target, tag, jobs, tmp_path / "stderr")
    assert code == cli.Exit.INTERRUPTED == 130, err
    assert err.rstrip().endswith("error: interrupted; the students graded so far are stored and the next grade run "
                                 "into the same folder resumes from them.")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert wait_for(lambda: not tagged(tag), 10), tagged(tag)  # no worker nor pool process lives on
    assert not (target / "results.json").exists()
    stored = sorted(p.name for p in (target / STORE).iterdir())
    assert all(name.endswith(".json") and not name.startswith(".") for name in stored), stored  # no partial file
    assert 1 <= len(stored) - 1 < 3  # run.json and at least one, not every, student
    text = grade(capsys, submissions, target, "--jobs", "1")
    assert graded_now(text) == 3 - (len(stored) - 1)  # only the students not stored
    assert without_times(target) == without_times(out)
    assert sorted(p.name for p in (target / "reports").iterdir()) == sorted(p.name for p in (out / "reports").iterdir())


def test_ctrl_c_while_a_pool_process_waits_for_work_ends_with_one_sentence(tmp_path):
    # Two students, two jobs, so a shard each: one with no file is done at once and its pool
    # process waits for work that never comes, while the other hangs in its worker.
    (tmp_path / "class" / "a_nothing").mkdir(parents=True)
    (tmp_path / "class" / "b_hangs").mkdir()
    (tmp_path / "class" / "b_hangs" / "matrix_norms.py").write_text(SLEEPER)
    target, tag = tmp_path / "out", f"ctrl-c-idle-{os.getpid()}"
    # settle: the idle pool process is back in the pool's queue by then
    code, err = ctrl_c_once_a_student_is_stored(tmp_path / "class", target, tag, "2", tmp_path / "stderr", settle=0.5)
    assert code == cli.Exit.INTERRUPTED, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert wait_for(lambda: not tagged(tag), 10), tagged(tag)
    assert len([p for p in (target / STORE).iterdir() if p.name != "run.json"]) == 1  # a_nothing, not b_hangs


def counting(calls):
    """grade_one in a fresh process (graders copied to tmp must not meet the ones this process imported
    under the same module names), recording which students and exercises each call grades."""
    def grade(students, chosen, on_done):
        calls.append(([sid for sid, _ in students], chosen.exercises))
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            results = [pool.submit(grade_one, sid, folder, chosen).result() for sid, folder in students]
        for result in results:
            on_done(result)
        return results
    return grade


def test_a_changed_grader_regrades_that_exercise_alone(tmp_path):
    graders = tmp_path / "graders"
    shutil.copytree(GRADERS, graders, ignore=shutil.ignore_patterns("__pycache__"))
    chosen = settings(graders_dir=graders, seed=7, isolation="process", call_timeout=2.0)
    students = [(name, SAMPLE / name) for name in ("amara_okafor", "ben_carter")]
    store = ResultStore(tmp_path / "out")
    calls = []

    def run():
        keys = grader_keys(graders, SOLUTIONS, COURSE, TERMS)
        return grade_incrementally(students, COURSE, keys, chosen, store, counting(calls), "process")

    first = run()
    first_results = first.results  # read now: an outcome reads the store when asked
    assert calls == [(["amara_okafor", "ben_carter"], ())] and first.graded_now == {"amara_okafor", "ben_carter"}
    calls.clear()
    assert run().graded_now == frozenset() and calls == []
    grader = graders / "test_clipping.py"
    grader.write_text(grader.read_text(encoding="utf-8").replace('"""', '"""Edited. ', 1), encoding="utf-8")
    again = run()
    assert calls == [(["amara_okafor", "ben_carter"], ("clipping",))]
    assert again.graded_now == {"amara_okafor", "ben_carter"}
    assert [to_dict(replace(r, graded="")) for r in again.results] == [to_dict(replace(r, graded="")) for r in first_results]


@pytest.mark.parametrize("package", ["hypothesis", "numpy"])
def test_an_upgrade_that_changes_the_cases_or_the_arithmetic_changes_every_key(monkeypatch, package):
    """Hypothesis draws the hidden cases and numpy computes both sides: a run after an upgrade must not
    keep results graded before it under the same seed (red team, read in gradecmd.py)."""
    from autograder import fingerprint
    before = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS)
    real = fingerprint.installed_version
    monkeypatch.setattr(fingerprint, "installed_version", lambda name: real(name) + (".1" if name == package else ""))
    after = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS)
    assert all(before[name] != after[name] for name in before)


def test_keys_change_with_their_own_exercise_only(tmp_path):
    graders = tmp_path / "graders"
    shutil.copytree(GRADERS, graders, ignore=shutil.ignore_patterns("__pycache__"))
    before = grader_keys(graders, SOLUTIONS, COURSE, TERMS)
    (graders / "test_residual.py").write_text((graders / "test_residual.py").read_text() + "\n# edited\n")
    after = grader_keys(graders, SOLUTIONS, COURSE, TERMS)
    assert {name for name in before if before[name] != after[name]} == {"residual"}
    shared = grader_keys(graders, SOLUTIONS, COURSE, (8, *TERMS[1:]))  # another seed changes every score
    assert all(shared[name] != after[name] for name in after)
    (graders / "pytest.ini").write_text((graders / "pytest.ini").read_text() + "\n")
    assert all(v != after[k] for k, v in grader_keys(graders, SOLUTIONS, COURSE, TERMS).items())

    student = shutil.copytree(SAMPLE / "amara_okafor", tmp_path / "amara")
    mine = exercise_keys(student, COURSE, after, 1 << 20)
    (student / "init_std.py").write_text((student / "init_std.py").read_text() + "\n")
    (student / "notes.txt").write_text("not an exercise")
    changed = exercise_keys(student, COURSE, after, 1 << 20)
    assert {name for name in mine if mine[name] != changed[name]} == {"init_std"}


def test_a_catalogued_mistake_is_part_of_its_own_exercise_key_only(tmp_path):
    """A failed check's diagnosis shows the catalogue's titles and hints: a stored result made
    with other ones does not hold."""
    catalogue = tmp_path / "catalogue"
    shutil.copytree(ROOT / "catalogue", catalogue, ignore=shutil.ignore_patterns("__pycache__"))
    before = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS, catalogue)
    assert all(before[name] != key for name, key in grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS).items())
    mistake = catalogue / "residual" / "mistakes" / sorted(p.name for p in (catalogue / "residual" / "mistakes").glob("*.py"))[0]
    mistake.write_text(mistake.read_text() + "\n# edited\n")
    after = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS, catalogue)
    assert {name for name in before if before[name] != after[name]} == {"residual"}
    (catalogue / "equivalent.toml").write_text((catalogue / "equivalent.toml").read_text() + "\n")
    assert all(v != after[k] for k, v in grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS, catalogue).items())


def test_an_edited_catalogued_mistake_is_shown_after_a_rerun(capsys, tmp_path, monkeypatch):
    kit = tmp_path / "kit"
    for part in ("graders", "solutions", "catalogue", "templates"):
        shutil.copytree(ROOT / part, kit / part, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cli, "ROOT", kit)
    submissions = make_class(tmp_path / "class", "ben_carter", "amara_okafor")
    out = tmp_path / "out"
    grade(capsys, submissions, out)
    old, new = "the starting norm left out", "the norm of the ones vector missing"
    assert old in (out / "results.json").read_text(encoding="utf-8")
    mistake = kit / "catalogue" / "matrix_norms" / "mistakes" / "skips_the_starting_norm.py"
    mistake.write_text(mistake.read_text().replace(f"TITLE = '{old}'", f"TITLE = '{new}'"))
    assert graded_now(grade(capsys, submissions, out)) == 2  # matrix_norms of each: the key is per exercise
    shown = (out / "results.json").read_text(encoding="utf-8")
    assert new in shown and old not in shown


def test_a_file_swapped_after_the_plan_is_kept_for_the_bytes_graded_never_the_planned_ones(tmp_path):
    """A student who can write to their folder during the run puts a correct file in after the
    plan read the wrong one, and the wrong one back once the worker has read it. The result
    belongs to the correct bytes: it is not shown for the wrong ones, and the next run grades them."""
    student = shutil.copytree(SAMPLE / "amara_okafor", tmp_path / "class" / "amara")
    wrong = (SAMPLE / "ben_carter" / "init_std.py").read_bytes()  # the variance for "he"
    right = (student / "init_std.py").read_bytes()
    (student / "init_std.py").write_bytes(wrong)
    store = ResultStore(tmp_path / "out")
    chosen = settings(seed=7, isolation="process", call_timeout=2.0, exercises=())
    keys = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS)
    calls = []

    def swapping(students, chosen, on_done):
        graded = []
        (student / "init_std.py").write_bytes(right)
        try:
            counting(calls)(students, chosen, graded.append)
        finally:
            (student / "init_std.py").write_bytes(wrong)
        for result in graded:
            on_done(result)

    first = grade_incrementally([("amara", student)], COURSE, keys, chosen, store, swapping, "process")
    shown = first.result("amara")
    assert (shown.status, shown.score) == ("error", 0.0), to_dict(shown)
    assert shown.message.startswith("init_std.py changed while this submission was being graded"), shown.message
    assert first.changed("amara") == ["init_std"]

    calls.clear()
    again = grade_incrementally([("amara", student)], COURSE, keys, chosen, store, counting(calls), "process")
    assert calls == [(["amara"], ("init_std",))] and again.changed("amara") == []
    init_std = {e.name: e for e in again.result("amara").exercises}["init_std"]
    assert again.result("amara").status == "graded" and 0 < init_std.score < init_std.max_score


def test_a_class_whose_file_changed_after_the_plan_says_so_exits_4_and_the_next_run_shows_the_file(capsys, tmp_path,
                                                                                                      monkeypatch):
    """The plan saw one init_std.py, the worker ran another: the row says so, and the result kept is
    the one for the file the worker ran, which the next run shows, as that is the file there now."""
    from autograder import fingerprint
    submissions = make_class(tmp_path / "class", "amara_okafor", "ben_carter")
    real_look = fingerprint.look
    other = SAMPLE / "ben_carter" / "init_std.py"
    # the plan reads ben_carter's init_std.py where amara's folder now holds her own
    monkeypatch.setattr(fingerprint, "look", lambda path, *rest, **named: real_look(
        other if path == submissions / "amara_okafor" / "init_std.py" else path, *rest, **named))
    out = tmp_path / "out"
    code = cli.main(["grade", str(submissions), "--out", str(out), *FAST, "--jobs", "1"])
    text, err = capsys.readouterr()
    assert code == 4, err
    assert "note: the files of 1 student changed while they were graded ('amara_okafor')" in err
    rows = {s["id"]: s for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["students"]}
    assert rows["amara_okafor"]["status"] == "error" and "init_std.py changed while" in rows["amara_okafor"]["message"]
    assert rows["ben_carter"]["status"] == "graded"
    monkeypatch.setattr(fingerprint, "look", real_look)
    text = grade(capsys, submissions, out)
    assert graded_now(text) == 0
    rows = {s["id"]: s for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["students"]}
    assert rows["amara_okafor"]["score"] == rows["amara_okafor"]["max_score"] > 0


def test_a_folder_swapped_for_a_link_to_a_classmate_after_intake_earns_nothing(capsys, tmp_path, monkeypatch):
    """Intake finds zoe's files two folders down (zoe/work/exercises/); once it has, zoe makes
    work/ a link to a classmate's folder. No read below the class's folder follows it: zoe's row
    is not the classmate's score, and the classmate's is untouched."""
    from autograder import gradecmd
    submissions = tmp_path / "class"
    shutil.copytree(SAMPLE / "amara_okafor", submissions / "amara" / "exercises")
    shutil.copytree(SAMPLE / "ben_carter", submissions / "zoe" / "work" / "exercises")
    real_read = gradecmd.read_submissions

    def read_then_swap(*args):
        intake = real_read(*args)
        shutil.rmtree(submissions / "zoe" / "work")
        (submissions / "zoe" / "work").symlink_to(submissions / "amara")
        return intake

    monkeypatch.setattr(gradecmd, "read_submissions", read_then_swap)
    out = tmp_path / "out"
    cli.main(["grade", str(submissions), "--out", str(out), *FAST, "--jobs", "1"])
    rows = {s["id"]: s for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["students"]}
    assert rows["amara"]["score"] == rows["amara"]["max_score"] > 0
    assert rows["zoe"]["score"] == 0, rows["zoe"]
    assert "a folder on its path is a symbolic link or not a folder" in (out / "results.json").read_text(encoding="utf-8")


def test_a_classmates_folder_renamed_into_a_students_place_after_intake_earns_nothing(capsys, tmp_path, monkeypatch):
    """A class's folder students may write to: once the class is read, zoe moves her folder aside
    and amara's into its place. Grading zoe's name would give her amara's score; the folder is not
    the one zoe's name held, so her row says it was replaced, and the run exits 4."""
    from autograder import gradecmd
    submissions = tmp_path / "class"
    shutil.copytree(SAMPLE / "amara_okafor", submissions / "amara")
    shutil.copytree(SAMPLE / "ben_carter", submissions / "zoe")
    real_pins = gradecmd.pin_folders

    def pin_then_swap(*args):
        pins = real_pins(*args)
        (submissions / "zoe").rename(submissions / "zoe_aside")
        (submissions / "amara").rename(submissions / "zoe")
        return pins

    monkeypatch.setattr(gradecmd, "pin_folders", pin_then_swap)
    out = tmp_path / "out"
    code = cli.main(["grade", str(submissions), "--out", str(out), *FAST, "--jobs", "1"])
    assert code == 4, capsys.readouterr().err
    rows = {s["id"]: s for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["students"]}
    assert rows["zoe"]["score"] == 0 and rows["zoe"]["status"] == "error", rows["zoe"]
    assert rows["zoe"]["message"].startswith("This submission's folder was replaced by another"), rows["zoe"]["message"]


def test_a_folder_swapped_in_only_while_it_is_read_earns_nothing(tmp_path, monkeypatch):
    """The patient version: amara's folder sits in zoe's place only while zoe's files are read
    (planned, then graded), and in its own while amara's are, so both readings of zoe agree."""
    from autograder import fingerprint
    root = tmp_path / "class"
    shutil.copytree(SAMPLE / "amara_okafor", root / "amara")
    shutil.copytree(SAMPLE / "ben_carter", root / "zoe")
    pins = pin_folders({"amara": root / "amara", "zoe": root / "zoe"}, str(root))

    def swap():
        (root / "zoe").rename(root / "zoe_aside")
        (root / "amara").rename(root / "zoe")

    def unswap():
        (root / "zoe").rename(root / "amara")
        (root / "zoe_aside").rename(root / "zoe")

    real_look = fingerprint.look

    def look_swapped(path, *rest, **named):
        if root / "zoe" not in path.parents:
            return real_look(path, *rest, **named)
        swap()
        try:
            return real_look(path, *rest, **named)
        finally:
            unswap()

    monkeypatch.setattr(fingerprint, "look", look_swapped)

    def grading(students, chosen, on_done):
        for student in students:
            if student[0] == "zoe":
                swap()
            try:
                counting([])([student], chosen, on_done)
            finally:
                if student[0] == "zoe":
                    unswap()

    store = ResultStore(tmp_path / "out")
    chosen = settings(seed=7, isolation="process", call_timeout=2.0, exercises=(), anchor=str(root))
    keys = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS)
    outcome = grade_incrementally([("amara", root / "amara"), ("zoe", root / "zoe")], COURSE, keys, chosen, store,
                                  grading, "process", pins=pins)
    amara, zoe = outcome.result("amara"), outcome.result("zoe")
    assert amara.score == amara.max_score > 0
    assert (zoe.status, zoe.score) == ("error", 0.0), to_dict(zoe)
    assert zoe.message.startswith("This submission's folder was replaced by another"), zoe.message


def test_a_file_removed_after_it_was_graded_is_not_called_missing(tmp_path, monkeypatch):
    """Whether an exercise was submitted is what its worker read, not what the folder holds once
    its checks are done: a file graded and then removed keeps its score and is not 'not submitted'."""
    from autograder import client
    student = shutil.copytree(SAMPLE / "amara_okafor", tmp_path / "amara")
    real_look = client.look

    def look_then_remove(path, *rest, **named):
        entry = real_look(path, *rest, **named)
        if path.name == "clipping.py":
            path.unlink()
        return entry

    monkeypatch.setattr(client, "look", look_then_remove)
    result = grade_one("amara", student, settings(seed=7, isolation="process", call_timeout=2.0))
    clipping = {e.name: e for e in result.exercises}["clipping"]
    assert (clipping.status, clipping.score) == ("graded", clipping.max_score), to_dict(result)

    emptied = shutil.copytree(SAMPLE / "amara_okafor", tmp_path / "emptied")  # every file, once read: not empty
    monkeypatch.setattr(client, "look", lambda path, *rest, **named: (real_look(path, *rest, **named), path.unlink())[0])
    result = grade_one("emptied", emptied, settings(seed=7, isolation="process", call_timeout=2.0))
    assert not any(emptied.iterdir())
    assert result.status == "graded" and result.score == result.max_score > 0, to_dict(result)


def test_every_stored_exercise_names_the_file_its_worker_ran(capsys, tmp_path):
    """Through the pool, its known verdicts and a missing file alike: what the store keys a result by
    comes from the worker's own reading of the file."""
    submissions = make_class(tmp_path / "class", "amara_okafor", "ivan_petrov", "fatima_haddad")
    grade(capsys, submissions, tmp_path / "out", "--jobs", "2")
    seen = {}
    for record in (tmp_path / "out" / STORE).glob("*.json"):
        data = json.loads(record.read_text(encoding="utf-8"))
        if record.name != "run.json":
            seen.update({(data["id"], name): entry["result"]["graded_entry"] for name, entry in data["exercises"].items()})
    assert seen == {(sid, e.name): look(submissions / sid / f"{e.name}.py").digest
                    for sid in ("amara_okafor", "ivan_petrov", "fatima_haddad") for e in COURSE}


def test_a_damaged_record_is_regraded_never_trusted(tmp_path):
    store = ResultStore(tmp_path / "out")
    calls = []
    chosen = settings(seed=7, isolation="process", call_timeout=2.0, exercises=())
    students = [("amara_okafor", SAMPLE / "amara_okafor")]
    keys = grader_keys(GRADERS, SOLUTIONS, COURSE, TERMS)
    grade_incrementally(students, COURSE, keys, chosen, store, counting(calls), "process")
    [record] = [p for p in (tmp_path / "out" / STORE).glob("*.json") if p.name != "run.json"]
    record.write_text(record.read_text()[:200])
    calls.clear()
    again = grade_incrementally(students, COURSE, keys, chosen, store, counting(calls), "process")
    assert calls == [(["amara_okafor"], ())] and again.results[0].score == again.results[0].max_score > 0


def test_jobs_default_to_the_cores_this_process_may_use(tmp_path):
    args = cli.build_parser().parse_args(["grade", str(tmp_path), "--out", str(tmp_path / "out")])
    assert args.jobs == len(os.sched_getaffinity(0))


def test_temporary_files_a_killed_run_left_are_removed_by_the_next_run_and_nothing_else(capsys, reference_run,
                                                                                         tmp_path):
    """SIGKILL while writing leaves each half-written copy (results.json's, a report's, a stored
    result's) under a temporary name; they piled up run after run."""
    submissions, out = reference_run
    target = tmp_path / "out"
    shutil.copytree(out, target)
    left = [target / ".results.json.0123456789ab.tmp", target / "reports" / ".ben_carter.html.a1b2c3d4e5f6.tmp",
            target / STORE / ".ben_carter-1234.json.fedcba987654.tmp"]
    kept = [target / "notes.txt", target / ".results.json.tmp", target / "reports" / ".draft.0123456789ab.tmp.txt",
            target / STORE / "results.0123456789ab.tmp", target / ".x.0123456789AB.tmp"]
    for path in (*left, *kept):
        path.write_text("partial")
    (target / ".dir.0123456789ab.tmp").mkdir()  # not a file: not the kit's
    text = grade(capsys, submissions, target, "--jobs", "1")
    assert graded_now(text) == 0
    assert [p for p in left if p.exists()] == []
    assert all(p.read_text() == "partial" for p in kept) and (target / ".dir.0123456789ab.tmp").is_dir()
    assert without_times(target) == without_times(out)
