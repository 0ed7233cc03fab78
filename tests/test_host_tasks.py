"""A worker the host would not start is the host's failure, never the student's.

In a container with a low ``--pids-limit`` (a pids cgroup, which binds root too) bubblewrap
could not fork its sandbox's first process, the worker ended with exit code 1, and a correct
student read "Your code ended the process during the import". Two defences, both tested here:
the run is refused before anyone is graded where the cgroup leaves too little room, and a
worker that dies before it says it is ready (so before any student code reached it) is the
sandbox's failure: the points are withheld, not lost, never kept, and the run exits 4. The same
refusal covers a grading process that holds nearly all the files it may open.
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import cgroup, cli, connection, preflight, room, sandbox, zygote
from autograder.cli import Exit
from autograder.client import StudentModule
from autograder.model import SANDBOX_FAILED, CheckResult, Status
from autograder.problems import SandboxFailed, WorkerCrashed
from conftest import ROOT

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user

CORRECT = ROOT / "examples" / "class" / "amara_okafor"
GRADE_PY = ROOT / "grade.py"
PIDS_V1 = Path("/sys/fs/cgroup/pids")


def load(path: Path, memory_mb: int = 1024) -> Exception | None:
    module = StudentModule(path, "scalar_chain", "process", sandbox.Limits(memory_bytes=memory_mb << 20))
    try:
        module.call("scalar_gradient_chain", 3, 0.5)
    except Exception as problem:  # noqa: BLE001  (the test looks at which)
        return problem
    finally:
        module.close()
    return None


def test_a_worker_that_cannot_even_start_numpy_is_the_sandboxs_failure():
    # 60 MiB of address space: Python starts, numpy's libraries do not map, the worker exits 1
    # before it is ready. That is what a host without room to start a worker looks like.
    problem = load(CORRECT / "scalar_chain.py", memory_mb=60)
    assert isinstance(problem, SandboxFailed), problem
    assert problem.message.startswith(f"{SANDBOX_FAILED} during the import of scalar_chain.py (its worker ended "
                                      "before it was ready")
    assert "Your code" not in problem.message


def test_a_student_who_ends_the_process_at_import_is_still_told_so(tmp_path):
    # Once the worker is ready, how it dies is the code's doing, whatever the code writes first.
    source = tmp_path / "scalar_chain.py"
    source.write_text("import os\nos.write(2, b\"bwrap: Can't fork for pid 1: Resource temporarily unavailable\\n\")\n"
                      "os._exit(1)\n")
    problem = load(source)
    assert isinstance(problem, WorkerCrashed), problem
    assert problem.message == "Your code ended the process (exit code 1) during the import of scalar_chain.py."


def test_a_check_the_sandbox_failed_on_is_never_kept():
    withheld = CheckResult("x", "", 0, 1, Status.ERROR, f"{SANDBOX_FAILED} during the import of a.py (its worker "
                                                         "ended before it was ready); this is not your fault.")
    student = CheckResult("x", "", 0, 1, Status.ERROR, "Your code ended the process (exit code 1) during the import.")
    assert withheld.grader_failed and not student.grader_failed


def test_a_submission_that_could_not_be_graded_for_its_own_sake_is_not_the_hosts_failure():
    from autograder.runner import failed_student
    from autograder.model import Exercise, host_failed
    course = (Exercise("scalar_chain", "A gradient is a product of slopes"),)
    linked = failed_student("ada", course, "The submission 'ada' is a symbolic link, so it was not graded.")
    crashed = failed_student("ada", course, "The grader itself failed while grading this submission (RuntimeError: x).")
    assert not host_failed(linked.exercises[0]) and host_failed(crashed.exercises[0])


def test_check_on_a_host_that_starts_no_worker_withholds_the_points_and_exits_4(tmp_path, monkeypatch, capsys):
    def never_ready(*args, **kwargs):
        raise connection.NotStarted("ended before it was ready")
    monkeypatch.setattr(preflight, "prove", lambda *args: None)  # the host fails after its proof
    monkeypatch.setattr(connection, "_await_ready", never_ready)
    report = tmp_path / "r.json"
    code = cli.main(["check", str(CORRECT), "--isolation", "process", "--seed", "3", "--json", str(report),
                     "--exercise", "scalar_chain"])  # every check tries two workers: one exercise is enough
    out, err = capsys.readouterr()
    checks = [t for e in json.loads(report.read_text())["students"][0]["exercises"] for t in e["tests"]]
    assert code == Exit.INCOMPLETE == 4
    assert len(checks) > 5 and all(t["message"].startswith(SANDBOX_FAILED) for t in checks)
    assert "Your code" not in out
    assert err.startswith(f"note: {len(checks)} checks could not be graded here, through no fault of yours "
                          f"({SANDBOX_FAILED} during the import of ")
    assert err.endswith("their points are withheld, not lost: run again, and tell your instructor if it goes on.\n")


ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,Homework 1
"Okafor, Amara",1234,S-001,amara@school.edu,Section A,
"Carter, Ben",2345,S-002,ben@school.edu,Section A,
"""


def one_exercise_kit(root: Path) -> Path:
    (root / "graders").mkdir(parents=True)
    for name in ("test_scalar_chain.py", "pytest.ini"):
        shutil.copy(ROOT / "graders" / name, root / "graders")
    (root / "graders" / "course.toml").write_text('[[exercise]]\nname = "scalar_chain"\ntitle = "S"\n')
    shutil.copytree(ROOT / "templates", root / "templates")
    return root


def test_a_grade_the_host_failed_is_incomplete_in_every_output_until_it_is_graded_again(tmp_path, monkeypatch, capsys):
    # A partial score in canvas.csv would be imported as the student's grade: it is left blank.
    monkeypatch.setattr(cli, "ROOT", one_exercise_kit(tmp_path / "kit"))
    monkeypatch.setattr(preflight, "prove", lambda *args: None)
    for name in ("amara", "ben"):
        (tmp_path / "class" / name).mkdir(parents=True)
        shutil.copy(CORRECT / "scalar_chain.py", tmp_path / "class" / name)
    (tmp_path / "roster.csv").write_text(ROSTER)
    out = tmp_path / "out"

    def grade(*extra: str) -> tuple[int, dict[str, str], dict[str, str], str]:
        code = cli.main(["grade", str(tmp_path / "class"), "--out", str(out), "--jobs", "1", "--isolation", "process",
                         "--allow-unsandboxed", "--seed", "3", "--canvas", str(tmp_path / "roster.csv"),
                         "--canvas-column", "Homework 1", *extra])
        _out, err = capsys.readouterr()
        statuses = {row["id"]: row["status"] for row in csv.DictReader(io.StringIO((out / "gradebook.csv").read_text()))}
        canvas = {row["ID"]: row["Homework 1"] for row in csv.DictReader(io.StringIO((out / "canvas.csv").read_text()))}
        return code, statuses, canvas, err

    with monkeypatch.context() as host:
        host.setattr(connection, "_await_ready", lambda *args, **kwargs: (_ for _ in ()).throw(
            connection.NotStarted("ended before it was ready")))
        code, statuses, canvas, err = grade()
    assert (code, statuses) == (Exit.INCOMPLETE, {"amara": "incomplete", "ben": "incomplete"})
    assert {k: v for k, v in canvas.items() if k in ("1234", "2345")} == {"1234": "", "2345": ""}
    assert "2 students ('amara', 'ben') could not be fully graded (the host failed some checks, or could not read their files)" in err

    code, statuses, canvas, err = grade("--only", "amara")  # a healthy host; ben is kept from the first run
    assert (code, statuses) == (Exit.INCOMPLETE, {"amara": "graded", "ben": "incomplete"})
    assert float(canvas["1234"]) > 0 and canvas["2345"] == ""
    assert "1 student kept from the earlier run" in err and "('ben') still has withheld checks" in err

    (tmp_path / "class" / "ben").rename(tmp_path / "ben-away")  # no submission: no run could grade him again
    code, statuses, canvas, err = grade("--only", "amara")
    assert (code, statuses["ben"]) == (Exit.DONE, "incomplete") and "kept from the earlier run" not in err
    (tmp_path / "ben-away").rename(tmp_path / "class" / "ben")

    code, statuses, canvas, err = grade()
    assert (code, statuses) == (Exit.DONE, {"amara": "graded", "ben": "graded"})
    assert float(canvas["1234"]) == float(canvas["2345"]) > 0 and "withheld" not in err


# --- the room a pids cgroup leaves ---------------------------------------------------------------

def fake_tree(tmp_path: Path, version: int, limits: dict[str, tuple[str, int]]) -> tuple[Path, Path]:
    """A cgroup file system with pids.max and pids.current at the given folders, and /proc/self/cgroup."""
    root = tmp_path / "cgroup"
    base = root if version == 2 else root / "pids"
    base.mkdir(parents=True)
    if version == 2:
        (root / "cgroup.controllers").write_text("pids memory\n")
    for folder, (limit, current) in limits.items():
        (base / folder).mkdir(parents=True, exist_ok=True)
        (base / folder / "pids.max").write_text(f"{limit}\n")
        (base / folder / "pids.current").write_text(f"{current}\n")
    proc = tmp_path / "proc-self-cgroup"
    proc.write_text("0::/box/inner\n" if version == 2 else "7:pids:/box/inner\n4:memory:/box/inner\n")
    return root, proc


@pytest.mark.parametrize("version", [1, 2])
def test_the_tightest_limit_of_the_group_and_its_ancestors_is_the_room(tmp_path, version):
    root, proc = fake_tree(tmp_path, version, {"box": ("40", 31), "box/inner": ("max", 3)})
    found = cgroup.task_room(root, proc)
    assert (found.left, found.limit, found.folder.name) == (9, 40, "box")


@pytest.mark.parametrize("version", [1, 2])
def test_no_limit_anywhere_is_no_room_to_check(tmp_path, version):
    root, proc = fake_tree(tmp_path, version, {"box": ("max", 31), "box/inner": ("max", 3)})
    assert cgroup.task_room(root, proc) is None


def test_too_little_room_is_one_sentence_with_what_to_do(tmp_path):
    tight = cgroup.TaskRoom(left=12, limit=14, folder=Path("/sys/fs/cgroup/pids/docker/abc"))
    assert room.too_few_tasks(2, tight) == (
        "this machine lets the grader start only 12 more processes and threads (pids.max 14 in "
        "/sys/fs/cgroup/pids/docker/abc), and grading with 2 jobs needs 44; raise the limit "
        "(docker run --pids-limit, systemd TasksMax) or grade with fewer --jobs.")
    assert room.too_few_tasks(1, cgroup.TaskRoom(15, 17, Path("/g"))).endswith(
        "and grading needs 16; raise the limit (docker run --pids-limit, systemd TasksMax).")
    assert room.too_few_tasks(1, cgroup.TaskRoom(16, 17, Path("/g"))) == ""
    assert room.too_few_tasks(8, None) == ""


needs_pids_v1 = pytest.mark.skipif(os.geteuid() != 0 or not (PIDS_V1 / "cgroup.procs").exists(),
                                   reason="needs root and the cgroup v1 pids hierarchy")


def check_in_pids_cgroup(tmp_path: Path, pids_max: int, *extra: str) -> tuple[subprocess.CompletedProcess, dict | None]:
    group = PIDS_V1 / f"gradient-kit-test-{os.getpid()}-{pids_max}"
    group.mkdir()
    try:
        (group / "pids.max").write_text(str(pids_max))
        report = tmp_path / "r.json"
        done = subprocess.run([sys.executable, str(GRADE_PY), "check", str(CORRECT), "--seed", "3", "--json", str(report),
                               *extra], env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}, preexec_fn=lambda: (group / "cgroup.procs").write_text(str(os.getpid())),
                              capture_output=True, text=True, timeout=120)
        return done, json.loads(report.read_text()) if report.exists() else None
    finally:
        group.rmdir()


@needs_pids_v1
def test_a_pids_limit_too_low_to_grade_is_refused_before_anyone_is_graded(tmp_path):
    done, results = check_in_pids_cgroup(tmp_path, 6)  # bwrap could not fork: correct students lost points
    assert done.returncode == 2 and results is None
    assert done.stderr.startswith("error: this machine lets the grader start only ") and "pids.max 6 in" in done.stderr


@needs_pids_v1
@pytest.mark.parametrize("workers", zygote.WORKERS)
def test_the_least_room_the_kit_accepts_gives_a_correct_student_full_marks(tmp_path, workers):
    # The grader itself holds one task when it looks (numpy's threads are held to none).
    done, results = check_in_pids_cgroup(tmp_path, 1 + room.tasks_needed(1), "--workers", workers)
    assert results is not None, done.stderr[-2000:]
    (student,) = results["students"]
    assert done.returncode == 0 and student["score"] == student["max_score"] > 0, done.stderr[-2000:]


@pytest.mark.parametrize("mode", [m for m in sandbox.ISOLATIONS if sandbox.zygote_possible(m)
                                  and (m == "process" or sandbox.bubblewrap_works())])
def test_a_forked_worker_that_never_got_ready_is_tried_again_from_a_new_zygote(mode, monkeypatch):
    # An earlier exercise's code ran beside the zygote and may have broken it: the retry must not
    # depend on it, or a student could have every later exercise withheld instead of graded.
    from autograder import runner
    from conftest import settings
    waits, starts, await_ready, start = [], [], connection._await_ready, zygote.Zygote._start

    def first_fails(*args, **kwargs):
        waits.append(1)
        if len(waits) == 1:
            raise connection.NotStarted("ended before it was ready")
        return await_ready(*args, **kwargs)

    def counted_start(self):
        starts.append(1)
        return start(self)
    monkeypatch.setattr(connection, "_await_ready", first_fails)
    monkeypatch.setattr(zygote.Zygote, "_start", counted_start)
    result = runner.grade_one("ada", CORRECT, settings(isolation=mode, exercises=("scalar_chain",)))
    (exercise,) = result.exercises
    assert exercise.score == exercise.max_score > 0 and len(starts) == 2


# --- the room left under the open-files limit -------------------------------------------------

def test_too_few_files_left_is_one_sentence_with_what_to_do():
    assert room.too_few_files(1, 1010, 1024) == (
        "this process holds 1010 of the 1024 files it may open, and grading needs 20 more; close some, "
        "or raise the limit (ulimit -n) and start it again.")
    assert room.too_few_files(1, 1004, 1024) == ""
    assert room.too_few_files(2, 1000, 1024) != "" and room.too_few_files(2, 990, 1024) == ""
    assert room.too_few_files(1, 5000, None) == ""


HOLDING = """
import os, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
held = [os.open(os.devnull, os.O_RDONLY) for _ in range(int(sys.argv[1]) - len(os.listdir("/proc/self/fd")) + 1)]
from autograder import cli
sys.exit(cli.main(["check", sys.argv[2], "--seed", "3", "--json", sys.argv[3]]))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc")
def test_a_grader_that_holds_nearly_all_its_files_is_refused_before_anyone_is_graded(tmp_path):
    # A notebook kernel or a service that calls the kit in its own process: every worker failed
    # to start, and a correct student got 0 with "the grader itself failed".
    report = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-c", HOLDING, "1012", str(CORRECT), str(report)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and not report.exists(), done.stderr[-2000:]
    assert done.stderr.startswith("error: this process holds ") and "files it may open" in done.stderr


def test_a_budget_spent_while_a_new_worker_starts_is_the_students_timeout():
    # The wait for the ready byte ends at the budgets' deadline like any call: the student's
    # earlier calls spent the time, and the host is not to blame for it.
    from autograder.budget import Budget
    from autograder.problems import StudentTimeout
    budget = Budget(180.0, "your whole submission")
    module = StudentModule(CORRECT / "scalar_chain.py", "scalar_chain", "process", sandbox.Limits(),
                           submission_budget=budget)
    budget.charge(180.0 - 0.001)
    try:
        with pytest.raises(StudentTimeout) as stopped:
            module.call("scalar_gradient_chain", 2, 0.5)
    finally:
        module.close()
    assert "ran out of time, having used up the 180 seconds it may run for your whole submission" in stopped.value.message


# --- the user's process limit (ulimit -u), which binds everyone but root -----------------------

def test_the_users_tasks_are_counted_against_its_process_limit(tmp_path, monkeypatch):
    for pid, uid, threads in (("17", 1000, 3), ("18", 1000, 1), ("19", 0, 40), ("20", 1001, 5)):
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "status").write_text(f"Name:\tx\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nThreads:\t{threads}\n")
    (tmp_path / "self").mkdir()
    monkeypatch.setattr(room.os, "getuid", lambda: 1000)
    monkeypatch.setattr(room.resource, "getrlimit", lambda kind: (20, 20))
    found = room.user_task_room(str(tmp_path))
    assert (found.left, found.limit, found.folder) == (16, 20, None)
    assert room.too_few_tasks(1, found) == ""
    assert room.too_few_tasks(2, found) == (
        "this machine lets the grader start only 16 more processes and threads (ulimit -u 20, which counts every "
        "process of this user), and grading with 2 jobs needs 44; raise it (ulimit -u) or grade with fewer --jobs.")


def _user_tasks() -> int:
    uid, tasks = str(os.getuid()), 0
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = dict(line.split(":", 1) for line in Path(f"/proc/{entry}/status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        tasks += int(fields["Threads"]) if fields["Uid"].split()[0] == uid else 0
    return tasks


@pytest.mark.alone  # the limit is set from every process of the user, the other test worker's included
@pytest.mark.skipif(os.geteuid() == 0, reason="root is not bound by RLIMIT_NPROC")
def test_a_user_process_limit_too_low_to_grade_is_refused_before_anyone_is_graded(tmp_path):
    limit = _user_tasks() + 8  # the new grader and its thread, and fewer than grading needs
    report = tmp_path / "r.json"
    done = subprocess.run([sys.executable, str(GRADE_PY), "check", str(CORRECT), "--seed", "3", "--json", str(report)],
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and not report.exists(), done.stderr[-2000:]
    assert done.stderr.startswith("error: this machine lets the grader start only ") and "ulimit -u" in done.stderr
