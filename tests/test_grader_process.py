"""What the grading process inherits from whoever started it never costs a correct student a point.

A daemon, a CI shell or a scheduler can start the grader with a low soft limit, SIGCHLD ignored,
stdout closed, or in a folder that was deleted. Each is the host's, and a correct submission
still gets full marks, or the run stops with one sentence.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys

import pytest

from autograder import cli, preflight, sandbox
from conftest import ROOT

CORRECT = ROOT / "examples" / "class" / "amara_okafor"
GRADE_PY = ROOT / "grade.py"


def check(tmp_path, prepare, *extra, cwd=None):
    """``grade.py check`` of a correct submission in a process ``prepare`` sets up first: (exit, results)."""
    report = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(GRADE_PY), "check", str(CORRECT), "--seed", "3", "--json", str(report),
                           *extra], preexec_fn=prepare, cwd=cwd, capture_output=True, text=True, timeout=60)
    return done, json.loads(report.read_text()) if report.exists() else None


def full_marks(results) -> bool:
    if results is None:
        return False
    (student,) = results["students"]
    return student["score"] == student["max_score"] > 0


@pytest.mark.parametrize("soft", [21, 22, 24, 27, 30])  # near what one worker needs: where starts began to fail
def test_a_low_soft_limit_on_open_files_still_gives_full_marks(tmp_path, soft):
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1024:
        pytest.skip(f"this host's hard limit on open files is {hard}")
    done, results = check(tmp_path, lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard)))
    assert done.returncode == 0 and full_marks(results), done.stderr[-2000:]


def _lower_soft(kind: int, soft: int):
    return lambda: resource.setrlimit(kind, (soft, resource.getrlimit(kind)[1]))


@pytest.mark.parametrize("kind, soft", [(resource.RLIMIT_FSIZE, 1 << 20),  # the arena is a 16 MiB file: "File too large"
                                        (resource.RLIMIT_CPU, 1)],  # the grader was killed by SIGXCPU
                         ids=["file-size", "cpu-time"])
def test_a_low_soft_limit_on_file_size_or_cpu_time_still_gives_full_marks(tmp_path, kind, soft):
    if resource.getrlimit(kind)[1] != resource.RLIM_INFINITY:
        pytest.skip("this host has a hard limit there")
    done, results = check(tmp_path, _lower_soft(kind, soft))
    assert done.returncode == 0 and full_marks(results), done.stderr[-2000:]


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="needs a working bubblewrap")
def test_sigchld_ignored_by_whoever_started_the_grader_does_not_hang_bubblewrap(tmp_path):
    # Ignored is inherited across exec; bwrap then never hears its child exit and waits forever.
    done, results = check(tmp_path, lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN), "--isolation", "bubblewrap")
    assert done.returncode == 0 and full_marks(results), done.stderr[-2000:]
    assert results["sandbox"].startswith("bubblewrap")


def test_a_closed_stdout_still_writes_the_json_results(tmp_path):
    done, results = check(tmp_path, lambda: os.close(1))
    assert done.returncode == 0 and full_marks(results), done.stderr[-2000:]
    assert "Traceback" not in done.stderr


def _stdout_on_a_full_disk() -> None:
    full = os.open("/dev/full", os.O_WRONLY)
    os.dup2(full, 1)
    os.close(full)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_stdout_on_a_full_disk_is_one_sentence_and_the_json_is_still_written(tmp_path):
    done, results = check(tmp_path, _stdout_on_a_full_disk)
    assert done.returncode == 2 and full_marks(results)
    assert done.stderr == (f"error: cannot write to standard output (No space left on device); "
                           f"{tmp_path / 'results.json'} was written.\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_grade_with_stdout_on_a_full_disk_writes_every_output_and_says_so(tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(GRADE_PY), "grade", str(CORRECT.parent), "--out", str(out), "--seed", "3",
                           "--jobs", "1", "--isolation", "process", "--allow-unsandboxed"],
                          preexec_fn=_stdout_on_a_full_disk, stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 2
    assert done.stderr.endswith(f"error: cannot write to standard output (No space left on device); everything in "
                                f"{out} was written.\n")
    students = {s["id"] for s in json.loads((out / "results.json").read_text())["students"]}
    assert students == {folder.name for folder in CORRECT.parent.iterdir() if folder.is_dir()}
    assert (out / "gradebook.csv").is_file() and len(list((out / "reports").glob("*.html"))) == len(students)


def test_stdout_and_stderr_both_closed_still_write_the_json_results(tmp_path):
    done, results = check(tmp_path, lambda: (os.close(1), os.close(2)))
    assert done.returncode == 0 and full_marks(results)


@pytest.mark.skipif(os.geteuid() == 0, reason="root's processes are not counted against RLIMIT_NPROC")
def test_a_low_soft_limit_on_processes_is_raised_before_numpy_starts_its_threads(tmp_path):
    _soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        pytest.skip(f"this host's hard limit on processes is {hard}")
    done, results = check(tmp_path, lambda: resource.setrlimit(resource.RLIMIT_NPROC, (2, hard)))
    assert done.returncode == 0 and full_marks(results), done.stderr[-2000:]


def _stderr_nobody_reads() -> None:
    read, write = os.pipe()
    os.dup2(write, 2)
    os.close(read)
    os.close(write)


def test_grade_with_a_stderr_nobody_reads_still_grades_and_writes_the_gradebook(tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(GRADE_PY), "grade", str(CORRECT.parent), "--out", str(out), "--seed", "3",
                           "--jobs", "2", "--isolation", "process", "--allow-unsandboxed"],
                          preexec_fn=_stderr_nobody_reads, stdout=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    students = {s["id"]: s for s in json.loads((out / "results.json").read_text())["students"]}
    assert students["amara_okafor"]["score"] == students["amara_okafor"]["max_score"] > 0
    assert (out / "gradebook.csv").is_file()


def test_a_deleted_current_folder_is_one_sentence_and_exit_2(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    done, results = check(tmp_path, lambda: os.rmdir(os.getcwd()), cwd=gone)
    assert done.returncode == 2 and results is None
    assert done.stderr == "error: the current folder no longer exists; cd into an existing folder and run again.\n"


def test_a_check_the_grader_itself_failed_on_is_shown_but_graded_again_next_run(tmp_path, monkeypatch, capsys):
    """A host that would not start workers that day costs nothing once it is healthy again."""
    students = tmp_path / "class"
    (students / "ada").mkdir(parents=True)
    for exercise in CORRECT.glob("*.py"):
        (students / "ada" / exercise.name).write_bytes(exercise.read_bytes())
    argv = ["grade", str(students), "--out", str(tmp_path / "out"), "--seed", "3", "--jobs", "1",
            "--isolation", "process", "--allow-unsandboxed"]
    starts, spawn = [], sandbox.spawn

    def first_only(*args, **kwargs):  # the host proof starts; then the host refuses every worker
        starts.append(1)
        if len(starts) > 1:
            raise OSError("the host refuses this start")
        return spawn(*args, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(sandbox, "spawn", first_only)
        assert cli.main(argv) == cli.Exit.INCOMPLETE
    assert "the next run into" in capsys.readouterr().err
    first = json.loads((tmp_path / "out" / "results.json").read_text())["students"][0]
    checks = [t for e in first["exercises"] for t in e["tests"]]
    assert len(starts) > 1 and first["score"] == 0 and len(checks) > 20
    assert all("not your fault" in t["message"] for t in checks)
    capsys.readouterr()
    assert cli.main(argv) == 0
    assert "1 graded now, 0 kept" in capsys.readouterr().out
    again = json.loads((tmp_path / "out" / "results.json").read_text())["students"][0]
    assert again["score"] == again["max_score"] > 0


def test_a_host_that_starts_no_worker_stops_check_before_grading(tmp_path, monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise OSError("the host refuses this start")
    monkeypatch.setattr(sandbox, "_limit_resources", refuse)  # in the child: Popen itself fails
    code = cli.main(["check", str(CORRECT), "--isolation", "process", "--json", str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert code == 2 and "cannot be started here" in err and "Traceback" not in err
    assert not (tmp_path / "r.json").exists()


def test_a_hard_limit_below_the_workers_is_named_with_what_to_do(monkeypatch):
    hard = {resource.RLIMIT_AS: 900_000 * 1024}
    monkeypatch.setattr(preflight.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(preflight.resource, "getrlimit",
                        lambda kind: (hard.get(kind, resource.RLIM_INFINITY),) * 2)
    with pytest.raises(preflight.HostProblem) as refused:
        preflight.prove("process", sandbox.Limits())
    assert str(refused.value) == (f"this shell's hard limit allows {900_000 * 1024} bytes of memory and a worker "
                                  f"needs {1 << 30}; raise it (ulimit -H) or pass a smaller --memory-mb.")
