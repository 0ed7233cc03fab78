"""The client's deadlines, budgets and outside observations, on tiny student files in both modes.

Limits here are small (a fraction of a second of CPU, a short wall-clock slack) so that every
bound is reached quickly; the assertions are upper bounds derived from those limits, never speeds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from autograder import codec, replies, sandbox
from autograder.budget import Budget
from autograder.client import StudentModule
from autograder.problems import BadReply, StudentRaised, StudentTimeout
from conftest import ROOT

ATTACKS = ROOT / "tests" / "attacks"
LIMITS = replace(sandbox.Limits(), call_timeout=0.5, load_timeout=5.0, wall_slack=1.0, exercise_seconds=8.0)
STARTUP_SLACK = 10.0  # starting and importing a worker on a loaded machine, at most


def modes():
    return [pytest.param("bubblewrap", marks=pytest.mark.skipif(not sandbox.bubblewrap_works(),
                                                                 reason="bubblewrap is not available")),
            "process"]


def module(tmp_path: Path, source: str, mode: str, exercise: str = "scalar_chain", limits=LIMITS, **extra):
    path = tmp_path / f"{exercise}.py"
    path.write_text(textwrap.dedent(source))
    return StudentModule(path, exercise, mode, limits, **extra)


@pytest.mark.parametrize("mode", modes())
def test_a_busy_loop_is_stopped_by_its_cpu_time(tmp_path, mode):
    patient = replace(LIMITS, wall_slack=60.0)  # however loaded the host, the CPU limit comes first
    student = module(tmp_path, "def f():\n    while True:\n        pass\n", mode, limits=patient)
    try:
        with pytest.raises(StudentTimeout, match="within 0.5 seconds of computing time"):
            student.call("f")
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_a_call_stalled_by_a_busy_host_is_retried_in_a_fresh_worker(tmp_path, mode):
    """A stopped worker uses no CPU, like one starved by a loaded host: the retry answers."""
    student = module(tmp_path, "def f(x):\n    return x + 1\n", mode)
    try:
        assert student.call("f", 1).value == 2
        stalled = student._process
        for pid in _tree(stalled.pid):
            os.kill(pid, signal.SIGSTOP)
        assert student.call("f", 2).value == 3
        assert student._process is not stalled
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_waiting_code_times_out_after_one_retry(tmp_path, mode):
    student = module(tmp_path, "import time\n\ndef f():\n    time.sleep(1000)\n", mode)
    try:
        with pytest.raises(StudentTimeout, match="twice, while using little computing time"):
            student.call("f")
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_a_spent_exercise_budget_fails_the_remaining_calls_at_once(tmp_path, mode):
    """Every call just inside its limits: the exercise stops at its budget, not after every call."""
    student = module(tmp_path, "import time\n\ndef f():\n    time.sleep(0.4)\n    return 1\n", mode)
    start = time.monotonic()
    outcomes = []
    try:
        for _ in range(60):
            try:
                outcomes.append(student.call("f").value)
            except StudentTimeout as timeout:
                outcomes.append(timeout.message)
    finally:
        student.close()
    elapsed = time.monotonic() - start
    assert 1 in outcomes and outcomes[-1].startswith("Not run: scalar_chain.py already ran out of time")
    assert "8 seconds it may run for this exercise" in outcomes[-1]
    assert elapsed < LIMITS.exercise_seconds + LIMITS.wall_bound(LIMITS.call_timeout) + STARTUP_SLACK


def test_the_submission_budget_is_shared_across_exercises(tmp_path):
    shared = Budget(3.0, "your whole submission")
    source = "import time\n\ndef f():\n    time.sleep(0.4)\n    return 1\n"
    first = module(tmp_path, source, "process", "scalar_chain", submission_budget=shared)
    second = module(tmp_path, source, "process", "residual", submission_budget=shared)
    try:
        for _ in range(20):
            try:
                first.call("f")
            except StudentTimeout:
                break
        with pytest.raises(StudentTimeout, match="for your whole submission"):
            second.call("f")
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("mode", modes())
def test_a_worker_that_blocks_its_request_pipe_cannot_block_the_grader(tmp_path, mode):
    source = (ATTACKS / "blocked_pipe" / "scalar_chain.py").read_text()
    student = module(tmp_path, source, mode)
    start = time.monotonic()
    try:
        for _ in range(4):
            try:
                assert student.call("scalar_gradient_chain", 3, 0.5).value == 0.125
            except StudentTimeout:
                pass
    finally:
        student.close()
    assert time.monotonic() - start < 4 * 2 * (LIMITS.wall_bound(LIMITS.call_timeout) + STARTUP_SLACK)


@pytest.mark.parametrize("mode", modes())
def test_an_in_place_edit_is_seen_whatever_the_worker_reports(tmp_path, mode):
    source = (ATTACKS / "hidden_inplace_edit" / "normalization.py").read_text()
    student = module(tmp_path, source, mode, "normalization")
    x, gamma = np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([2.0, 2.0, 2.0, 2.0])
    try:
        result = student.call("layer_norm", x.copy(), return_args=True, gamma=gamma.copy())
        assert not np.array_equal(result.args_after[0], x)
        assert np.array_equal(result.kwargs_after["gamma"], gamma)  # read, not edited
        honest = student.call("rms_norm", x.copy(), return_args=True)
        assert np.array_equal(honest.args_after[0], x)
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_an_array_reaches_the_student_in_its_own_memory_order_and_an_edit_there_is_seen(tmp_path, mode):
    """A wrong-solution round: arrays shared for a readback were C copies, so code that edits only
    Fortran-ordered or transposed arrays in place never met one and passed the not-modified checks."""
    source = ("def f(x):\n"
              "    layout = 'C' if x.flags.c_contiguous else 'F' if x.flags.f_contiguous else 'other'\n"
              "    if layout != 'C':\n"
              "        x *= 2.0\n"
              "    return layout\n")
    student = module(tmp_path, source, mode, "clipping")
    x = np.arange(6.0).reshape(2, 3)
    try:
        for sent, layout in ((x.copy(), "C"), (np.asfortranarray(x), "F"), (x.T.copy().T, "F"), (x[:, ::2], "C")):
            result = student.call("f", sent, return_args=True)
            assert result.value == layout
            assert np.array_equal(result.args_after[0], sent * (1.0 if layout == "C" else 2.0))
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_a_reassigned_list_slot_is_still_reported(tmp_path, mode):
    """The worker's report keeps what shared memory cannot show: a list whose slot was replaced."""
    source = "def clip(grads, m):\n    grads[0] = grads[0] * 2\n    return grads\n"
    student = module(tmp_path, source, mode, "clipping")
    grads = [np.array([1.0, 2.0]), np.array([3.0])]
    try:
        after = student.call("clip", [g.copy() for g in grads], 1.0, return_args=True).args_after[0]
        assert np.array_equal(after[0], grads[0] * 2) and np.array_equal(after[1], grads[1])
    finally:
        student.close()


@pytest.mark.parametrize("mode", modes())
def test_a_forged_exception_class_fails_and_a_real_one_counts(tmp_path, mode):
    forged = module(tmp_path, (ATTACKS / "forged_exception" / "init_std.py").read_text(), mode, "init_std")
    try:
        with pytest.raises(BadReply, match="changed how the worker reports exceptions"):
            forged.call("init_std", "lecun", 3, 3)
        with pytest.raises(BadReply):
            forged.call("init_std", "he", 50, 50)  # a lying worker is not asked again
    finally:
        forged.close()
    honest = module(tmp_path, "def init_std(kind, a, b):\n    raise ValueError(kind)\n", mode, "init_std")
    try:
        with pytest.raises(StudentRaised) as raised:
            honest.call("init_std", "lecun", 3, 3)
        assert raised.value.raised("ValueError")
    finally:
        honest.close()


@pytest.mark.parametrize("mode", modes())
def test_a_worker_dies_with_the_process_that_started_it(tmp_path, mode):
    """SIGKILL the grader's process mid-call: its worker (and bwrap) go too."""
    (tmp_path / "scalar_chain.py").write_text("import time\n\ndef f():\n    time.sleep(1000)\n")
    script = textwrap.dedent(f"""
        import sys, threading
        from pathlib import Path
        from autograder import sandbox
        from autograder.client import StudentModule
        student = StudentModule(Path({str(tmp_path / 'scalar_chain.py')!r}), "scalar_chain", {mode!r},
                                sandbox.Limits(call_timeout=100))
        threading.Timer(2.0, lambda: (print(student._process.pid, flush=True))).start()
        student.call("f")
    """)
    grader = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        worker = int(grader.stdout.readline())
        tree = _tree(worker)
        assert tree, "the worker was not running"
    finally:
        grader.kill()
        grader.wait()
    for _ in range(100):
        alive = [pid for pid in tree if _alive(pid)]
        if not alive:
            break
        time.sleep(0.1)
    assert alive == []


def _tree(pid: int) -> list[int]:
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                pending += [int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_reply_of_more_arrays_than_any_answer_holds_is_refused(tmp_path, monkeypatch):
    # Each array costs the grader tens of microseconds to read: a reply of a hundred thousand tiny
    # ones (Fortran-ordered, so that np.load reads each) held it for seconds per call.
    monkeypatch.setattr(replies, "MAX_REPLY_ARRAYS", 100)
    source = "import numpy as np\n\ndef f(n):\n    return [np.zeros((2, 2), order='F') for _ in range(n)]\n"
    student = module(tmp_path, source, "process")
    try:
        assert len(student.call("f", 100).value) == 100
        with pytest.raises(BadReply, match="more arrays than any answer needs"):
            student.call("f", 101)
    finally:
        student.close()


def test_reading_a_reply_is_charged_to_the_students_budgets(tmp_path, monkeypatch):
    shared = Budget(1000.0, "your whole submission")
    source = "import numpy as np\n\ndef f():\n    return 1.0\n"
    student = module(tmp_path, source, "process", submission_budget=shared)
    slow_decode = codec.decode

    def decode(*args, **kwargs):
        time.sleep(0.3)  # a reply that takes long to read, as far as the grader's clock goes
        return slow_decode(*args, **kwargs)
    try:
        student.call("f")  # loaded: the load's own time is not what this measures
        before = shared.spent
        monkeypatch.setattr(codec, "decode", decode)
        student.call("f")
        assert shared.spent - before >= 0.3
    finally:
        student.close()
