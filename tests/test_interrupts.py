"""Ctrl-C: never lost, never graded through, never a traceback under the run's one sentence."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from autograder import cli, connection, interrupts
from autograder.store import STORE
from conftest import ROOT
from test_incremental import FAST, make_class

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")


def lose_a_ctrl_c() -> None:
    """Ctrl-C pressed while the garbage collector runs a finalizer: Python raises KeyboardInterrupt
    inside it, and then ignores it, as it does every exception of a finalizer."""
    class Finalized:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(3):  # the handler runs at this loop's first turn, here
                pass
    Finalized()


@pytest.fixture
def python_handles_ctrl_c():
    """Python's own SIGINT handling in this process, as in a terminal (a suite started in the
    background of a script inherits SIGINT ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost KeyboardInterrupt
def test_a_ctrl_c_that_python_loses_still_stops_the_run_and_nothing_half_graded_is_kept(
        capsys, tmp_path, monkeypatch, python_handles_ctrl_c):
    submissions = make_class(tmp_path / "class", "amara_okafor", "ben_carter")
    calls, real = [], connection.exchange

    def exchange(*args, **kwargs):  # every call into a student's worker, in this process with one job
        calls.append(args[1].get("op"))
        if len(calls) == 60:  # in the middle of amara_okafor's checks
            lose_a_ctrl_c()
        return real(*args, **kwargs)

    monkeypatch.setattr(connection, "exchange", exchange)
    code = cli.main(["grade", str(submissions), "--out", str(tmp_path / "out"), *FAST, "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == cli.Exit.INTERRUPTED, err
    assert err.rstrip().endswith("error: interrupted; the students graded so far are stored and the next grade "
                                 "run into the same folder resumes from them.")
    assert len(calls) < 200  # it stopped soon after, not at the end of the class (about 1,000 calls each)
    assert sorted(p.name for p in (tmp_path / "out" / STORE).iterdir()) == ["run.json"]  # amara was half graded
    assert not (tmp_path / "out" / "results.json").exists()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_lost_ctrl_c_is_still_known_where_results_are_kept(python_handles_ctrl_c):
    with interrupts.watched():
        interrupts.check()  # not pressed: nothing
        lose_a_ctrl_c()
        assert interrupts.pressed()
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's handling is back
    assert not interrupts.pressed()


def test_a_process_that_handles_ctrl_c_itself_keeps_its_way():
    def own(_signum, _frame):
        pass
    before = signal.signal(signal.SIGINT, own)
    try:
        with interrupts.watched():
            assert signal.getsignal(signal.SIGINT) is own
    finally:
        signal.signal(signal.SIGINT, before)


def test_what_an_interrupt_left_half_way_is_freed_without_a_word():
    def half_way():
        try:
            yield
        finally:  # like pytest's capture closed out of turn: its state is torn
            raise AssertionError("torn")

    def interrupted():
        generator = half_way()
        next(generator)
        raise KeyboardInterrupt

    said, hook = [], sys.unraisablehook
    sys.unraisablehook = said.append
    try:
        try:
            interrupted()
        except KeyboardInterrupt as interrupt:
            interrupts.let_go(interrupt)
        assert said == []
    finally:
        sys.unraisablehook = hook


STARTS = """
import concurrent.futures, multiprocessing, os, signal, sys
sys.path.insert(0, {root!r})
from autograder import pool

if __name__ == "__main__":
    with pool._ctrl_c_held():
        executor = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=pool._start_pool_process,
            initargs=(os.getpid(),))
        executor.submit(os.getpid)
        (child,) = multiprocessing.active_children()
        os.kill(child.pid, signal.SIGINT)  # Ctrl-C while it starts: long before it has imported anything
    child.join(60)
    print(child.exitcode)
    executor.shutdown(cancel_futures=True)
"""


def test_a_pool_process_that_ctrl_c_reaches_as_it_starts_leaves_without_a_word(tmp_path):
    script = tmp_path / "starts.py"
    script.write_text(STARTS.format(root=str(ROOT)))
    # A fresh process: multiprocessing's resource tracker is not running yet, as in a real run.
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "130", done.stderr  # its own quiet exit, after its start
    assert "Traceback" not in done.stderr and "Fatal" not in done.stderr, done.stderr
