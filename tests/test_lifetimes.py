"""When the grader dies, whichever of its processes is killed, everything it started dies too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import sandbox
from conftest import ROOT

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user

SLEEPER = "import time\n\n\ndef matrix_gradient_norms(depth, dim, weight_std, rng):\n    time.sleep(10**6)\n"


def tagged(tag: str) -> list[tuple[int, bytes]]:
    """Live processes of the run tagged ``tag``: those with the tag in their environment, and every
    process under one of them (a zygote and the workers it forks are not dumpable, so without root
    their environment cannot be read; their parentage can)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        try:
            marked = f"GRADER_RUN_TAG={tag}".encode() in Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            marked = False
        table[int(entry)] = (int(fields[1]), fields[0], cmdline, marked)

    def of_the_run(pid: int) -> bool:
        for _depth in range(32):
            if pid not in table:
                return False
            parent, _state, _cmdline, marked = table[pid]
            if marked:
                return True
            pid = parent
        return False
    return [(pid, cmdline) for pid, (_parent, state, cmdline, _marked) in table.items()
            if state != "Z" and of_the_run(pid)]


def is_worker(cmdline: bytes) -> bool:
    """The worker's Python itself (bwrap's own command line names worker.py too, as a mount)."""
    program = cmdline.split(b"\0", 1)[0].rsplit(b"/", 1)[-1]
    return program != b"bwrap" and cmdline.rstrip(b"\0").endswith(b"worker.py")


def wait_for(condition, seconds: float):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return condition()


@pytest.mark.parametrize("victim", ["grade.py", "a pool process"])
@pytest.mark.parametrize("mode", [pytest.param("bubblewrap", marks=pytest.mark.skipif(
    not sandbox.bubblewrap_works(), reason="bubblewrap is not available")), "process"])
def test_killing_the_grader_leaves_no_process_behind(tmp_path, mode, victim):
    for student in ("s1", "s2"):
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "matrix_norms.py").write_text(SLEEPER)
    tag = f"lifetimes-{os.getpid()}-{mode}-{victim.split()[-1]}"
    grader = subprocess.Popen(
        [sys.executable, str(ROOT / "grade.py"), "grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"),
         "--jobs", "2", "--timeout", "1", "--isolation", mode, "--allow-unsandboxed"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "GRADER_RUN_TAG": tag})
    try:
        # Two workers of the pool (the preflight's own worker, in grade.py, comes and goes before).
        workers = wait_for(lambda: [p for p, c in tagged(tag) if is_worker(c)][1:]
                           and [p for p, c in tagged(tag) if b"multiprocessing" in c], 120)
        assert workers, "two workers never started"
        if victim == "grade.py":
            os.kill(grader.pid, signal.SIGKILL)
        else:
            pool = [p for p, c in tagged(tag) if b"multiprocessing" in c and p != grader.pid]
            assert pool, tagged(tag)
            os.kill(max(pool), signal.SIGKILL)
            os.kill(grader.pid, signal.SIGKILL)  # then the rest of the grader too
    finally:
        grader.kill()
        grader.wait()
    assert wait_for(lambda: not tagged(tag), 15), tagged(tag)
