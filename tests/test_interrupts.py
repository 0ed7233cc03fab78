"""Ctrl-C: never lost, never graded through, never a traceback under the run's one sentence."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time

import pytest

from autograder import cli, connection, interrupts, pool
from autograder.runner import Settings
from autograder.store import STORE
from conftest import ROOT
from test_incremental import FAST, make_class, start_grade
from test_lifetimes import SLEEPER, is_worker, tagged, wait_for

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
    amara = {path.read_text() for path in (submissions / "amara_okafor").glob("*.py")}
    loads, real = [], connection.exchange

    def exchange(*args, **kwargs):  # every exchange with a worker, in this process with one job
        if args[1].get("op") == "load" and args[1].get("source") in amara:
            loads.append(args[1]["filename"])
            if len(loads) == 3:  # amara_okafor's third load, whether the scripts were kept or recorded now
                lose_a_ctrl_c()
        return real(*args, **kwargs)

    monkeypatch.setattr(connection, "exchange", exchange)
    code = cli.main(["grade", str(submissions), "--out", str(tmp_path / "out"), *FAST, "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == cli.Exit.INTERRUPTED, err
    assert err.rstrip().endswith("error: interrupted; the students graded so far are stored and the next grade "
                                 "run into the same folder resumes from them.")
    assert len(loads) == 3  # it stopped there: none of her files was loaded again
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


def test_only_the_first_ctrl_c_raises_so_a_second_cannot_break_off_the_stopping(python_handles_ctrl_c):
    with interrupts.watched():
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
        try:
            os.kill(os.getpid(), signal.SIGINT)  # pressed again while the run stops
            time.sleep(0.01)
        except KeyboardInterrupt:
            pytest.fail("a second Ctrl-C raised KeyboardInterrupt again", pytrace=False)
        assert interrupts.pressed()


def test_a_student_whose_code_hangs_is_not_called_again_once_ctrl_c_is_pressed(tmp_path):
    # Nor for the figures the report would draw, each call of which would hang until its time limit.
    (tmp_path / "class" / "hangs").mkdir(parents=True)
    (tmp_path / "class" / "hangs" / "matrix_norms.py").write_text(SLEEPER)
    tag = f"ctrl-c-hangs-{os.getpid()}"
    with open(tmp_path / "stderr", "wb") as stderr:
        child = start_grade(tmp_path / "class", tmp_path / "out", tag=tag, stderr=stderr)
        try:
            assert wait_for(lambda: any(is_worker(c) for _p, c in tagged(tag)), 60), "no worker started"
            time.sleep(1)  # its first call has started, and hangs
            before = {pid for pid, _c in tagged(tag)}
            os.killpg(child.pid, signal.SIGINT)
            started = set()
            while child.poll() is None:  # every process the run starts from now on
                started |= {pid for pid, _c in tagged(tag)} - before
                time.sleep(0.02)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == cli.Exit.INTERRUPTED, (tmp_path / "stderr").read_text()
    assert started == set()  # no worker, no sandbox: the student's code was not called again


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
    # The pool's own thread reaps its dead process too; whichever waitpid loses reads no exit code,
    # so the code is read once that thread has ended.
    executor.shutdown(cancel_futures=True)
    print(child.exitcode)
"""


def test_a_pool_process_that_ctrl_c_reaches_as_it_starts_leaves_without_a_word(tmp_path):
    script = tmp_path / "starts.py"
    script.write_text(STARTS.format(root=str(ROOT)))
    # A fresh process: multiprocessing's resource tracker is not running yet, as in a real run.
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "130", done.stderr  # its own quiet exit, after its start
    assert "Traceback" not in done.stderr and "Fatal" not in done.stderr, done.stderr


SHUTS_DOWN = """
import atexit, os, runpy, signal, sys
atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))  # Ctrl-C during Python's own shutdown
sys.argv = [{grade!r}, "--version"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_a_ctrl_c_after_the_last_word_does_not_break_into_pythons_shutdown(tmp_path):
    script = tmp_path / "shuts_down.py"
    script.write_text(SHUTS_DOWN.format(grade=str(ROOT / "grade.py")))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          preexec_fn=functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == 0 and done.stdout.startswith("gradient kit "), done.stderr
    assert done.stderr == ""


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost KeyboardInterrupt
def test_no_pool_is_started_once_ctrl_c_was_pressed(monkeypatch, tmp_path, python_handles_ctrl_c):
    # A pool broken by the press would otherwise be started again for the students it had left.
    monkeypatch.setattr(pool.concurrent.futures, "ProcessPoolExecutor",
                        lambda *args, **kwargs: pytest.fail("a pool was started after Ctrl-C", pytrace=False))
    settings = Settings(graders_dir=ROOT / "graders", reference_dir=None, seed=1, isolation="process")
    with interrupts.watched():
        lose_a_ctrl_c()
        with pytest.raises(KeyboardInterrupt):
            pool.grade_in_pool([("a", tmp_path), ("b", tmp_path)], settings, 2, lambda result: None)
