"""Workers forked from a submission's zygote: as fresh as a new interpreter, with the same results.

Every exercise of a submission runs in a worker forked from the submission's own warm sandbox
(zygote.py, forkserver.py), and no two students share one. These tests plant state in one worker
and look for it in the next (of the same student and of the next student), stop and kill the
zygote from inside, and compare whole classes graded with forked and with fresh workers.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
import os
from pathlib import Path

import pytest

from autograder import runner, sandbox, shard, zygote
from autograder.model import to_dict
from conftest import COURSE, ROOT, SOLUTIONS, settings

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user

MODES = [mode for mode in sandbox.ISOLATIONS if mode == "process" or sandbox.bubblewrap_works()]
# Where a zygote is used: the tests of what it must not let through run there; elsewhere
# (process mode without root) every worker starts fresh, and the same tests must pass too.
ZYGOTE_MODES = [mode for mode in MODES if sandbox.zygote_possible(mode)]

# Put before a correct solution: fails the import if anything an earlier worker planted is
# visible here, then plants all of it for the next worker to find.
PLANT_AND_LOOK = '''
import ctypes as _ctypes, os as _os, resource as _resource, sys as _sys, threading as _threading, time as _time
import numpy as _np
_libc = _ctypes.CDLL(None, use_errno=True)
_FILES, _IPC = __FILES__, __IPC__
_seen = []
if _FILES and (_os.path.exists("/tmp/planted") or _os.path.exists("/tmp/locked") or _os.path.exists("/tmp/deep")):
    _seen.append("a file in /tmp")
# Folders the sandbox itself made in /tmp (on the way to a path under the host's /tmp it binds,
# such as a virtual environment there) stay; what a worker puts in them must not.
_made = [_root for _root, _dirs, _files in _os.walk("/tmp") if not _os.path.ismount(_root)
         and not _dirs.__setitem__(slice(None), [d for d in _dirs if not _os.path.ismount(_os.path.join(_root, d))])]
if _FILES and any(_os.path.exists(_os.path.join(_folder, "planted-nested")) for _folder in _made):
    _seen.append("a file in a folder the sandbox made in /tmp")
if _IPC and (_libc.semget(0x5EED, 0, 0) >= 0 or _libc.msgget(0x5EEE, 0) >= 0):
    _seen.append("a System V semaphore or message queue")
if "planted_module" in _sys.modules or getattr(_np, "planted", False) or getattr(_np.random.default_rng, "planted", False):
    _seen.append("a module or numpy attribute")
if _os.environ.get("PLANTED") or any(t.name == "planted-thread" for t in _threading.enumerate()):
    _seen.append("an environment variable or thread")
if _resource.getrlimit(_resource.RLIMIT_RTTIME)[0] == 4321 or _os.getpriority(_os.PRIO_PROCESS, 0) == 7:
    _seen.append("a resource limit or niceness the parent was given")
if _seen:
    raise RuntimeError("planted state reached this worker: " + ", ".join(_seen))
if _FILES:
    for _folder in _made:
        try:
            open(_os.path.join(_folder, "planted-nested"), "w").close()
        except OSError:
            pass
    with open("/tmp/planted", "w") as _handle:
        _handle.write("x")
    _os.makedirs("/tmp/locked/inner")
    _os.chmod("/tmp/locked", 0)
    _deep = "/tmp/deep"
    for _level in range(400):  # deeper than the open-file limit lets a recursive removal go
        _deep += "/d"
    _os.makedirs(_deep)
if _IPC:
    _libc.semget(0x5EED, 1, 0o1000 | 0o600)
    _libc.msgget(0x5EEE, 0o1000 | 0o600)
_sys.modules["planted_module"] = _sys
_np.planted = True
_default_rng = _np.random.default_rng
def _patched_rng(*args, **kwargs):
    return _default_rng(*args, **kwargs)
_patched_rng.planted = True
_np.random.default_rng = _patched_rng
_os.environ["PLANTED"] = "1"
try:  # without root, the process limit counts every task of the grading user: there may be no room
    _threading.Thread(target=_time.sleep, args=(1e6,), name="planted-thread", daemon=True).start()
except RuntimeError:
    pass
if _FILES or _IPC:  # the parent is a zygote (or bwrap's init), never the grader itself
    try:
        _resource.prlimit(_os.getppid(), _resource.RLIMIT_RTTIME, (4321, _resource.getrlimit(_resource.RLIMIT_RTTIME)[1]))
        _os.setpriority(_os.PRIO_PROCESS, _os.getppid(), 7)
    except OSError:
        pass
'''


def planting_submission(folder: Path, mode: str) -> Path:
    folder.mkdir(parents=True)
    # Elsewhere /tmp, IPC and the parent are the host's (process mode without root: the parent is the grader).
    isolated = mode == "bubblewrap" or (mode == "process" and os.getuid() == 0)
    prefix = PLANT_AND_LOOK.replace("__FILES__", str(mode == "bubblewrap")).replace("__IPC__", str(isolated))
    for source in SOLUTIONS.glob("*.py"):
        (folder / source.name).write_text(after_future_imports(source.read_text(), prefix))
    return folder


def after_future_imports(source: str, inserted: str) -> str:
    """``source`` with ``inserted`` after its ``from __future__`` lines, which must come first."""
    lines = source.splitlines(keepends=True)
    cut = max((i + 1 for i, line in enumerate(lines) if line.startswith("from __future__")), default=0)
    return "".join(lines[:cut]) + inserted + "".join(lines[cut:])


def scores(result) -> dict[str, tuple]:
    """Verdicts, and how many plots were drawn: a plot worker that met planted state draws none."""
    return {e.name: (e.status, e.score, tuple((t.name, t.status, t.score) for t in e.tests), len(e.plots))
            for e in result.exercises}


@pytest.fixture(scope="module")
def honest():
    """A correct submission's verdicts, graded with fresh workers: what every test below compares with."""
    return {mode: scores(runner.grade_one("honest", SOLUTIONS, settings(isolation=mode, workers="fresh")))
            for mode in MODES}


@pytest.fixture
def forks(monkeypatch):
    """How many workers were forked from a zygote, and how many had to start afresh instead."""
    counted = {"forked": 0, "fresh": 0}
    original = zygote.Zygote.fork

    def counting(self, arena_fd):
        worker = original(self, arena_fd)
        counted["forked" if worker is not None else "fresh"] += 1
        return worker
    monkeypatch.setattr(zygote.Zygote, "fork", counting)
    return counted


@pytest.mark.parametrize("mode", ZYGOTE_MODES)
def test_every_exercise_runs_in_a_forked_worker_with_full_marks(mode, honest, forks):
    result = runner.grade_one("correct", SOLUTIONS, settings(isolation=mode))
    assert scores(result) == honest[mode]
    assert forks["fresh"] == 0
    assert forks["forked"] >= len(COURSE)  # one per exercise, and one more per plotted exercise


@pytest.mark.parametrize("mode", MODES)
def test_state_planted_by_one_exercise_is_invisible_to_the_next(mode, honest, forks, tmp_path):
    folder = planting_submission(tmp_path / "planter", mode)
    result = runner.grade_one("planter", folder, settings(isolation=mode))
    assert scores(result) == honest[mode]
    if mode in ZYGOTE_MODES:
        assert forks["forked"] >= len(COURSE) and forks["fresh"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_state_planted_by_one_student_is_invisible_to_the_next_in_the_same_process(mode, honest, tmp_path):
    first = planting_submission(tmp_path / "first", mode)
    second = planting_submission(tmp_path / "second", mode)
    results = runner.grade_batch([("first", first), ("second", second)], settings(isolation=mode), jobs=1)
    assert [scores(r) for r in results] == [honest[mode], honest[mode]]


@pytest.mark.parametrize("mode", ZYGOTE_MODES)
def test_each_student_takes_a_sandbox_started_ahead_of_them_and_none_is_shared_or_left(mode, honest, monkeypatch):
    events = []
    originals = {name: getattr(zygote.Zygote, name) for name in ("start", "fork", "close")}

    def recording(name):
        def method(self, *args):
            events.append((name, id(self)))
            return originals[name](self, *args)
        return method
    for name in originals:
        monkeypatch.setattr(zygote.Zygote, name, recording(name))
    begin = shard.begin_submission

    def beginning(config, folder, **kwargs):
        events.append(("begin", folder.name))
        begin(config, folder, **kwargs)
    monkeypatch.setattr(shard, "begin_submission", beginning)
    students = [(name, SOLUTIONS) for name in ("a", "b", "c")]
    results = runner.grade_batch(students, settings(isolation=mode, shard_size=3, use_scripts=False), jobs=1)
    assert [scores(r) for r in results] == [honest[mode]] * 3
    begins = [i for i, (what, _) in enumerate(events) if what == "begin"]
    assert len(begins) == 3
    used = []
    for first, end in zip(begins, [*begins[1:], len(events)]):
        forked_by = {z for what, z in events[first:end] if what == "fork"}
        assert len(forked_by) == 1, "one sandbox per student"
        (warm,) = forked_by
        started_at = next(i for i, event in enumerate(events) if event == ("start", warm))
        assert started_at < first, "started before the student's first check, not when it asked"
        used.append(warm)
    assert len(set(used)) == 3
    started = {z for what, z in events if what == "start"}
    assert started == set(used), "no sandbox started that no student took"
    assert started <= {z for what, z in events if what == "close"}


ZYGOTE_SIGNALS = {
    "stopped": "os.kill(os.getppid(), signal.SIGSTOP)",
    "killed": "os.kill(os.getppid(), signal.SIGKILL)",
}


@pytest.mark.parametrize("mode", ZYGOTE_MODES)  # elsewhere the parent is the grader itself, not a zygote
@pytest.mark.parametrize("how", sorted(ZYGOTE_SIGNALS))
def test_a_student_who_stops_or_kills_the_zygote_loses_nothing(mode, how, honest, tmp_path):
    folder = tmp_path / how
    shutil.copytree(SOLUTIONS, folder)
    signal_it = f"import os, signal\ntry:\n    {ZYGOTE_SIGNALS[how]}\nexcept OSError:\n    pass\n"
    for name in ("scalar_chain.py", "init_std.py"):  # the first exercise, and one in the middle
        (folder / name).write_text(after_future_imports((folder / name).read_text(), signal_it))
    result = runner.grade_one(how, folder, settings(isolation=mode))
    got, expected = scores(result), dict(honest[mode])
    if how == "killed":
        # Killing its own parent ends the worker that did it (its own exercise may lose points,
        # as the message says), never the next one.
        for name in ("scalar_chain", "init_std"):
            got.pop(name), expected.pop(name)
    assert got == expected


TAMPER = '''
import ctypes, os
def holes():
    """Ways into the zygote (the parent), each of which must be refused."""
    parent, found = os.getppid(), []
    try:
        with open(f"/proc/{parent}/mem", "r+b"):
            found.append("its memory")
    except OSError:
        pass
    try:
        os.listdir(f"/proc/{parent}/fd")
        found.append("its descriptors")
    except OSError:
        pass
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, parent, None, None) == 0:  # PTRACE_ATTACH
        found.append("ptrace")
    pid = os.fork() if hasattr(os, "fork") else -1
    if pid == 0:
        os._exit(0)
    if pid > 0:
        found.append("a process of its own")
    return found
'''


@pytest.mark.parametrize("mode", ZYGOTE_MODES)
def test_a_forked_worker_cannot_reach_into_the_zygote(mode, tmp_path):
    folder = tmp_path / "tamper"
    folder.mkdir()
    (folder / "scalar_chain.py").write_text(TAMPER + "\n\ndef scalar_gradient_chain(depth, layer_scale):\n"
                                            "    found = holes()\n    if found:\n        raise RuntimeError(', '.join(found))\n"
                                            "    return float(layer_scale) ** depth\n")
    result = runner.grade_one("tamper", folder, settings(isolation=mode, exercises=("scalar_chain",)))
    messages = [t.message for e in result.exercises for t in e.tests if t.status != "passed"]
    assert not any("RuntimeError" in m for m in messages), messages


@pytest.mark.alone  # its CPU-bound timeouts meet the wall clock: the other worker's load must not move them
def test_the_new_design_and_the_old_one_grade_the_sample_class_identically():
    """New: workers forked from one warm sandbox, shards of students per session, every check's
    calls sent at once from the scripts. Old: a fresh sandbox per exercise, a session per student,
    every call sent as the check makes it."""
    students = sorted((p.name, p) for p in (ROOT / "examples" / "class").iterdir() if p.is_dir())
    base = settings()
    fresh = runner.grade_batch(students, replace(base, workers="fresh", shard_size=1, use_scripts=False), jobs=2)
    forked = runner.grade_batch(students, replace(base, workers="zygote", shard_size=8), jobs=2)
    assert_graded_alike([reproducible(to_dict(r)) for r in forked], [reproducible(to_dict(r)) for r in fresh])


def differences(got: list[dict], expected: list[dict]) -> list[str]:
    """Where two gradings of the same students part, one line per check: who, which check, and
    what each gave. Read before the whole results are compared, so that a failure names the
    student and the check instead of ending in a diff too long to show."""
    lines = [f"students: {[s['id'] for s in got]} against {[s['id'] for s in expected]}"] \
        if [s["id"] for s in got] != [s["id"] for s in expected] else []
    for mine, theirs in zip(got, expected):
        checks = {(e["name"], t["name"]): t for e in theirs["exercises"] for t in e["tests"]}
        for exercise in mine["exercises"]:
            for test in exercise["tests"]:
                other = checks.get((exercise["name"], test["name"]), {})
                said = [(k, test.get(k), other.get(k)) for k in ("status", "score", "message") if test.get(k) != other.get(k)]
                lines += [f"{mine['id']} {exercise['name']}::{test['name']} {k}: {a!r} against {b!r}" for k, a, b in said]
    return lines


def assert_graded_alike(got: list[dict], expected: list[dict]) -> None:
    assert differences(got, expected) == []
    assert got == expected


def reproducible(student: dict) -> dict:
    """All of a student's result but the curves drawn from the student's own answers: a sample
    student draws from numpy's unseeded global generator, so those differ between any two runs."""
    for exercise in student["exercises"]:
        exercise["plots"] = [{**plot, "series": [s for s in plot["series"] if s["role"] != "student"]}
                             for plot in exercise["plots"]]
    return student


UNDER_TMP = """
import json, sys
from autograder import runner, zygote
from conftest import settings
from test_zygote import planting_submission, scores
from pathlib import Path
counted = {"forked": 0, "fresh": 0}
original = zygote.Zygote.fork
def counting(self, arena_fd):
    worker = original(self, arena_fd)
    counted["forked" if worker is not None else "fresh"] += 1
    return worker
zygote.Zygote.fork = counting
folder = planting_submission(Path(sys.argv[1]), "bubblewrap")
chosen = settings(isolation="bubblewrap", bwrap=sys.argv[3])  # the bwrap the suite found (a wheel's is not here)
planted = scores(runner.grade_one("planter", folder, chosen))
honest = scores(runner.grade_one("honest", Path(sys.argv[2]), settings(isolation="bubblewrap", bwrap=sys.argv[3],
                                                                       workers="fresh")))
print(json.dumps({"same": planted == honest, **counted}))
"""


@pytest.mark.skipif("bubblewrap" not in ZYGOTE_MODES, reason="a zygote under bubblewrap is not possible here")
def test_a_python_under_tmp_still_gets_forked_workers_and_what_is_planted_beside_it_is_swept(tmp_path):
    """A virtual environment under the host's /tmp is bound into the sandbox's own /tmp, so the
    sandbox's /tmp holds the folders on the way to it: the zygote keeps those, sweeps what a worker
    puts in them, and still forks (it refused every fork, and each worker cost two sandboxes)."""
    import json
    import site
    import subprocess
    import venv

    assert str(tmp_path).startswith("/tmp/")
    environment = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(environment)
    completed = subprocess.run(
        [str(environment / "bin" / "python"), "-c", UNDER_TMP, str(tmp_path / "planter"), str(SOLUTIONS),
         sandbox.find_bwrap().found.path],
        cwd=ROOT / "tests", capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests"), *site.getsitepackages()])})
    assert completed.returncode == 0, completed.stderr[-2000:]
    found = json.loads(completed.stdout.strip().splitlines()[-1])
    assert found["same"] and found["fresh"] == 0 and found["forked"] >= len(COURSE)


# Looks first, then sets what a child may set on /tmp itself, which emptying /tmp leaves: an
# extended attribute, the folder's mode and its times; what it may write to the zygote's /proc
# files (a coredump filter every fork inherits, the session's autogroup nice); the limits and
# niceness of the sandbox's first process, which runs as its uid (bubblewrap's, or the zygote).
MARKS_AND_LOOKS = '''
import os as _os, resource as _resource
_marks = [name for name in _os.listxattr("/tmp") if name.startswith("user.")]
if _marks or int(_os.stat("/tmp").st_mtime) == 12345 or not _os.access("/tmp", _os.W_OK):
    raise RuntimeError("an earlier worker's marks on /tmp reached this worker")
if _resource.prlimit(1, _resource.RLIMIT_DATA)[0] == 12345678 or _os.getpriority(_os.PRIO_PROCESS, 1) == 19:
    raise RuntimeError("an earlier worker's settings of the sandbox's first process reached this worker")
try:
    _resource.prlimit(1, _resource.RLIMIT_DATA, (12345678, _resource.prlimit(1, _resource.RLIMIT_DATA)[1]))
    _os.setpriority(_os.PRIO_PROCESS, 1, 19)
except OSError:
    pass

# A sandbox hatched by root has no /proc at all (hatchery.py): then nothing to set there either.
if _os.path.isdir("/proc/self") and (open("/proc/self/coredump_filter").read().strip().endswith("1ff")
                                     or " nice 19" in open("/proc/self/autogroup").read()):
    raise RuntimeError("an earlier worker's settings of the zygote reached this worker")
try:
    _os.setxattr("/tmp", "user.answers", b"42")
except OSError:
    pass
_os.utime("/tmp", (12345, 12345))
_os.chmod("/tmp", 0o555)
for _path, _value in (("/proc/%d/coredump_filter" % _os.getppid(), "0x1ff"), ("/proc/self/autogroup", "19")):
    try:
        with open(_path, "w") as _handle:
            _handle.write(_value)
    except OSError:
        pass
'''


# Alone, since any of the marks above sends the next worker to a fresh sandbox: the times and
# modes of /dev/pts and its ptmx, which the zygote neither sweeps nor compares.
PTS_MARKS_AND_LOOKS = '''
import os as _os
for _path in ("/dev/pts", "/dev/pts/ptmx"):
    if _os.path.exists(_path) and (int(_os.stat(_path).st_mtime) == 12345 or _os.stat(_path).st_mode & 0o7777 == 0o604):
        raise RuntimeError("an earlier worker's marks on /dev/pts reached this worker")
    try:
        _os.utime(_path, (12345, 12345))
        _os.chmod(_path, 0o604)
    except OSError:
        pass
'''


# Alone too: the flags and signal of the open /dev/null on 0, 1 and 2, which a forked worker
# inherited from its zygote, so that every worker of a student shared one.
DEVNULL_MARKS_AND_LOOKS = '''
import fcntl as _fcntl, os as _os
if _fcntl.fcntl(0, _fcntl.F_GETFL) & _os.O_APPEND or _fcntl.fcntl(2, 11) == 37:  # F_GETSIG
    raise RuntimeError("an earlier worker's marks on the zygote's /dev/null reached this worker")
_fcntl.fcntl(0, _fcntl.F_SETFL, _fcntl.fcntl(0, _fcntl.F_GETFL) | _os.O_APPEND)
_fcntl.fcntl(2, 10, 37)  # F_SETSIG
'''
MARKS = {"tmp_and_settings": MARKS_AND_LOOKS, "pts": PTS_MARKS_AND_LOOKS, "devnull": DEVNULL_MARKS_AND_LOOKS}


@pytest.mark.skipif("bubblewrap" not in ZYGOTE_MODES, reason="a zygote under bubblewrap is not possible here")
@pytest.mark.parametrize("workers", ["zygote", "hatched"])
@pytest.mark.parametrize("marks", sorted(MARKS))
def test_what_a_worker_sets_on_tmp_or_the_zygote_never_reaches_the_next_worker(workers, marks, honest, tmp_path):
    folder = tmp_path / "marker"
    folder.mkdir()
    prefix = MARKS[marks]
    for source in SOLUTIONS.glob("*.py"):
        (folder / source.name).write_text(prefix + source.read_text())
    result = runner.grade_one("marker", folder, settings(isolation="bubblewrap", workers=workers))
    assert scores(result) == honest["bubblewrap"]


# Moves the sandbox's counters by far more than a whole submission's workers do: files made in
# /tmp (each takes the next inode number) and threads started and joined (each takes the next pid).
# A worker sent a hidden check's inputs could move them by those inputs, for later workers to read.
COUNTER_SENDERS = {
    "files": '''
import os as _os
if not _os.path.exists("/tmp/.sent"):
    for _i in range(400):
        open("/tmp/.sent" if _i == 399 else "/tmp/.s%d" % _i, "w").close()
''',
    "threads": '''
import threading as _threading
if not hasattr(_threading, "sent"):
    _threading.sent = True
    for _i in range(150):
        try:
            _t = _threading.Thread(target=int)
            _t.start()
            _t.join()
        except RuntimeError:  # without root, the task limit counts the grading user's tasks: no room
            break
''',
}

# Reads them back: answers wrongly (a public check fails) if either counter is past what a
# fresh sandbox's handful of workers reach.
COUNTER_RECEIVER = '''
import os as _os
_probe = "/tmp/.receiver-%d" % _os.getpid()
with open(_probe, "w") as _handle:
    _INODE = _os.fstat(_handle.fileno()).st_ino
_os.unlink(_probe)
_MOVED = _INODE >= 300 or _os.getpid() >= 100
'''


@pytest.mark.skipif("bubblewrap" not in ZYGOTE_MODES, reason="a zygote under bubblewrap is not possible here")
@pytest.mark.parametrize("workers", ["zygote", "hatched"])
@pytest.mark.parametrize("sender", sorted(COUNTER_SENDERS))
def test_counters_one_exercises_worker_moved_never_reach_a_later_exercises_worker(workers, sender, honest, forks,
                                                                                tmp_path):
    """Every exercise but scalar_chain (graded last) moves its sandbox's inode and pid counters;
    scalar_chain's worker answers every call wrongly if it can see that they moved."""
    folder = tmp_path / "sender"
    folder.mkdir()
    for source in SOLUTIONS.glob("*.py"):
        text = source.read_text()
        if source.stem == "scalar_chain":
            text = after_future_imports(text, COUNTER_RECEIVER).replace("    return ", "    return 0.5 if _MOVED else ", 1)
        else:
            text = after_future_imports(text, COUNTER_SENDERS[sender])
        (folder / source.name).write_text(text)
    assert "_MOVED else" in (folder / "scalar_chain.py").read_text()
    result = runner.grade_one("sender", folder, settings(isolation="bubblewrap", workers=workers))
    assert scores(result) == honest["bubblewrap"]
    assert forks["fresh"] == 0  # a sandbox afresh where counters moved, never a worker without a zygote
