"""Sandboxes hatched inside a session's hatchery (hatching.py, hatchery.py): one per student, each
with processes, a /tmp, IPC and a network of its own, no capabilities, and nothing of the student
before it, not even the kernel's counters.

Each test hatches students one after another in one hatchery, as a grading session does, and runs
a probe file in each, through the client as a check would.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from autograder import sandbox
from autograder.client import StudentModule
from autograder.hatching import Hatched, Hatchery
from autograder.zygote import Zygote

pytestmark = [pytest.mark.host, pytest.mark.skipif(not sandbox.zygote_possible("bubblewrap"), reason="no bubblewrap with seccomp here")]

LIMITS = sandbox.Limits()

PROBE = '''
import ctypes, os, signal

def facts():
    """What this sandbox shows a student."""
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    libc.capget(header, data)
    procs = sorted(int(p) for p in os.listdir("/proc") if p.isdigit()) if os.path.isdir("/proc/self") else None
    with open("/tmp/first", "w"):
        pass
    return {"pid": os.getpid(), "parent": os.getppid(), "procs": procs, "capabilities": list(data),
            "tmp": sorted(os.listdir("/tmp")), "inode": os.stat("/tmp/first").st_ino,
            "sid": os.getsid(0) == os.getppid(), "hostname": os.uname().nodename}

def leave_traces(count):
    """Advance every counter a student can: files (inodes), processes it may not start, a host
    name, and signals to every process it can see."""
    for number in range(count):
        with open(f"/tmp/trace-{number}", "w"):
            pass
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.sethostname(b"traced", 6)
    except Exception:
        pass
    for pid in range(1, 200):
        if pid != os.getpid():
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
    return count
'''


@pytest.fixture
def hatchery():
    found = sandbox.find_bwrap().found
    made = Hatchery(LIMITS, found.path)
    yield made
    made.close()


@pytest.fixture
def probe(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text(PROBE)
    return path


def student(hatchery: Hatchery, probe) -> tuple[Zygote, StudentModule]:
    zygote = Zygote("bubblewrap", LIMITS, hatchery.bwrap_path, hatchery=hatchery)
    zygote.start()
    return zygote, StudentModule(probe, "probe", "bubblewrap", LIMITS, hatchery.bwrap_path, zygote=zygote)


def test_each_student_gets_a_sandbox_of_its_own_with_no_capability_and_nothing_of_the_one_before(hatchery, probe):
    seen = []
    for traces in (300, 0):
        zygote, module = student(hatchery, probe)
        try:
            seen.append(module.call("facts").value)
            assert isinstance(zygote._process, Hatched), "not hatched: a sandbox of its own was started instead"
            assert module.call("leave_traces", traces).value == traces
        finally:
            module.close()
            zygote.close()
    first, second = seen
    assert first["capabilities"] == [0] * 6 and second["capabilities"] == [0] * 6
    assert first["tmp"] == second["tmp"] == ["first"], "another student's files in /tmp"
    # The kernel's counters start afresh: no bits pass from one student to the next through them.
    assert (second["pid"], second["parent"], second["inode"]) == (first["pid"], first["parent"], first["inode"])
    assert second["hostname"] == first["hostname"] != "traced"
    for facts in seen:
        # Its own processes alone (the zygote and this worker), or no /proc at all: never the hatchery's.
        assert facts["procs"] in (None, [facts["parent"], facts["pid"]])
        assert facts["parent"] == 1 and facts["sid"]


def test_a_student_who_signals_everything_it_can_leaves_the_hatchery_hatching(hatchery, probe):
    zygote, module = student(hatchery, probe)
    try:
        module.call("leave_traces", 0)  # SIGSTOP to every pid it can name
    finally:
        module.close()
        zygote.close()
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(hatchery._process.pid)], capture_output=True, text=True)
    assert "T" not in state.stdout
    zygote, module = student(hatchery, probe)
    try:
        assert module.call("facts").value["tmp"] == ["first"]
        assert isinstance(zygote._process, Hatched)
    finally:
        module.close()
        zygote.close()


def test_a_hatchery_that_cannot_start_leaves_each_student_a_sandbox_of_its_own(probe):
    broken = Hatchery(LIMITS, "/nonexistent/bwrap")
    zygote = Zygote("bubblewrap", LIMITS, sandbox.find_bwrap().found.path, hatchery=broken)
    zygote.start()
    module = StudentModule(probe, "probe", "bubblewrap", LIMITS, zygote.bwrap_path, zygote=zygote)
    try:
        assert module.call("facts").value["tmp"] == ["first"]
        assert isinstance(zygote._process, subprocess.Popen)
    finally:
        module.close()
        zygote.close()
        broken.close()


# What a red team passed from one hatched student to the next, and what, as root, it changed on
# the host itself: the hatchery's /dev/pts (its times), the hatchery's open /dev/null (a lock, a
# signal owner, its flags) and the host's device nodes (their mode and times).
MARKS = '''
import fcntl, os

def leave_marks():
    done = []
    # The host's /dev/null gets back its own mode and times: where this is let through (the bug
    # this looks for), it changes nothing, and says so.
    null = os.stat("/dev/null")
    for path, times in (("/dev/pts", (111, 222)), ("/dev/pts/ptmx", (333, 444)),
                        ("/dev/null", (null.st_atime_ns, null.st_mtime_ns))):
        try:
            os.utime(path, ns=times)
            done.append("times of " + path)
        except OSError:
            pass
    try:
        os.chmod("/dev/null", null.st_mode & 0o7777)
        done.append("mode of /dev/null")
    except OSError:
        pass
    fcntl.fcntl(0, 10, 42)  # F_SETSIG on what fd 0 is open to
    fcntl.fcntl(0, fcntl.F_SETFL, os.O_APPEND)
    return done

def read_marks():
    times = [os.stat(p).st_mtime_ns for p in ("/dev/pts", "/dev/pts/ptmx", "/dev/null")]
    with open("/dev/null", "w") as sink, open("/dev/urandom", "rb") as source:
        sink.write("still a device")
        drawn = len(source.read(8))
    return {"times": times, "signal": fcntl.fcntl(0, 11), "append": bool(fcntl.fcntl(0, fcntl.F_GETFL) & os.O_APPEND),
            "drawn": drawn}
'''


def test_no_mark_a_student_leaves_on_devices_or_standard_streams_reaches_the_next_or_the_host(hatchery, tmp_path):
    path = tmp_path / "marks.py"
    path.write_text(MARKS)
    before = os.stat("/dev/null")
    seen = []
    for function in ("leave_marks", "read_marks"):
        zygote = Zygote("bubblewrap", LIMITS, hatchery.bwrap_path, hatchery=hatchery)
        zygote.start()
        module = StudentModule(path, "marks", "bubblewrap", LIMITS, hatchery.bwrap_path, zygote=zygote)
        try:
            seen.append(module.call(function).value)
        finally:
            module.close()
            zygote.close()
    done, found = seen
    # Its own /dev/pts it may mark (the next student gets another); the host's /dev/null, never.
    assert not [what for what in done if "/dev/null" in what], f"a student changed {done}"
    assert 222 not in found["times"] and 444 not in found["times"]
    assert (found["signal"], found["append"], found["drawn"]) == (0, False, 8)
    after = os.stat("/dev/null")
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)
