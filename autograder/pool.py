"""Grading a class across a pool of trusted processes, a shard of students per task.

A pool process never runs student code (its workers do, in their sandboxes); each result comes back
as soon as it is known, a file in a spool folder the run reads, so the run stores it at once: a run
killed halfway loses only the students being graded at that moment.

A spool, not a queue: a manager's queue starts a thread for every connection, and a student's code
may take every task the user may start (without root, where no control group bounds a worker).
The manager could then start none, its accepting thread died, and the run hung. Writing a file
needs no thread, no lock that a dying process could hold, and no pipe it could leave half-written.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import signal
import stat
import tempfile
import time
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Callable, Iterator

from . import heap, interrupts, sandbox
from .model import GRADER_FAILED, ResultsFormatError, StudentResult, load_course, student_from_dict, to_dict
from .runner import Settings, failed_student, grade_shard, shards
from .scratch import scratch


POSTED_BYTES = 64 << 20  # far above any result (outputs and messages are capped on arrival)


def _start_pool_process(parent: int) -> None:
    """In a pool process: dies with the run, and leaves at once on Ctrl-C.

    A terminal sends Ctrl-C to the whole group; the run decides what it means and shuts the pool
    down. A pool process keeps nothing of its own (results are stored by the run), and its workers
    die with it, so it simply ends: an idle one would otherwise die of KeyboardInterrupt in the
    pool's queue and print a traceback over the run's one-sentence message.
    """
    sandbox.die_with_parent(parent)
    signal.signal(signal.SIGINT, lambda _signum, _frame: os._exit(130))
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held since birth (_ctrl_c_held)


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C waits while the pool and its processes start.

    A pool process is a new Python; one that Ctrl-C reaches before :func:`_start_pool_process` runs
    dies of it mid-import and prints a fatal error over the run's one-sentence message. A blocked
    signal stays blocked across fork and exec (and in the pool's own thread, started here), so each
    is born with Ctrl-C held, and meets the one pressed meanwhile as soon as its start lets it in.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks, and no process groups either
        yield
        return
    # Started by the pool's first lock otherwise, multiprocessing's resource tracker unblocks
    # SIGINT in this thread after starting (it blocks it only for its own start).
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a Ctrl-C pressed meanwhile arrives here


def _grade_shard_into(students: list[tuple[str, Path]], settings: Settings, spool: str) -> list[StudentResult]:
    """In a pool process: a shard, each result posted to ``spool`` as soon as it is known, and all of
    them returned at the end (what the spool could not take arrives then)."""
    def post(result: StudentResult) -> None:
        try:
            _post(Path(spool), result)
        except (OSError, ValueError):  # a full disk, say: the returned list still carries it
            pass
        heap.give_back()  # what this student's checks freed: else the process grows with the class
    return grade_shard(students, settings, post)


def _post(spool: Path, result: StudentResult) -> None:
    # Named to sort in the order posted; renamed into place whole, so the run never reads half a file.
    fd, part = tempfile.mkstemp(prefix=f"{time.monotonic_ns():020d}-", suffix=".part", dir=spool)
    with os.fdopen(fd, "wb") as handle:
        handle.write(json.dumps(to_dict(result, with_spent=True), ensure_ascii=False).encode("utf-8", "surrogateescape"))
    os.rename(part, part.removesuffix(".part") + ".json")


def grade_in_pool(students: list[tuple[str, Path]], settings: Settings, jobs: int,
                  on_done: Callable[[StudentResult], None]) -> None:
    """Every student's result to ``on_done``, once, as soon as it arrives; none is held here, so the
    run's memory does not grow with the class."""
    arrived_ids: set[str] = set()

    def arrived(result: StudentResult) -> None:
        if result.id not in arrived_ids:
            arrived_ids.add(result.id)
            on_done(result)

    pending = list(students)
    expected = {sid for sid, _folder in students}
    context = multiprocessing.get_context("spawn")
    with scratch("spool") as spool_folder:
        spool = str(spool_folder)
        # A pool process that dies (it never runs student code, so only a grader bug or the OOM
        # killer can do that) breaks the pool: start a fresh one for whatever was not finished.
        for _attempt in range(2):
            interrupts.check()  # a pool broken by Ctrl-C is not started again
            if not pending:
                break
            # Pool processes die with this one, and take their workers with them (sandbox.spawn).
            with contextlib.ExitStack() as stack:
                with _ctrl_c_held():  # the processes are started by the pool and its first tasks
                    pool = stack.enter_context(concurrent.futures.ProcessPoolExecutor(
                        max_workers=jobs, mp_context=context, initializer=_start_pool_process,
                        initargs=(os.getpid(),)))
                    futures = {pool.submit(_grade_shard_into, shard, settings, spool)
                               for shard in shards(pending, settings.shard_size, jobs)}
                while futures:
                    interrupts.check()
                    finished, futures = concurrent.futures.wait(futures, timeout=0.2,
                                                                return_when=concurrent.futures.FIRST_COMPLETED)
                    _drain(Path(spool), arrived, expected)
                    for future in finished:
                        try:
                            for result in future.result():  # what the spool has not brought yet, if anything
                                arrived(result)
                        except Exception:  # noqa: BLE001  (a broken pool: retried below)
                            continue
            _drain(Path(spool), arrived, expected)  # what was posted after the last look, as the pool broke
            pending = [(sid, folder) for sid, folder in pending if sid not in arrived_ids]
    course = load_course(settings.graders_dir)
    for sid, _folder in pending:
        # Ended from outside (the OOM killer, say) while this student waited in its shard: not the submission's doing.
        arrived(failed_student(sid, course, f"{GRADER_FAILED}: the process grading this part of the class was ended "
                                            "twice before this submission's result was in; this is not your fault."))


def _drain(spool: Path, arrived: Callable[[StudentResult], None], expected: set[str]) -> None:
    """Every result posted so far, in the order posted; a file that cannot be read, or that names a
    student not in this run, is left to the task's returned list."""
    for path in sorted(spool.glob("*.json")):
        try:
            result = student_from_dict(json.loads(_read_posted(path).decode("utf-8", "surrogateescape")), path.name)
        except (OSError, ValueError, RecursionError, ResultsFormatError):
            result = None
        try:
            path.unlink()
        except OSError:  # gone already, or not a file at all: never the run's problem
            pass
        if result is not None and result.id in expected:
            arrived(result)


def _read_posted(path: Path) -> bytes:
    """A posted file's bytes; never a pipe, a device or a link (without root in process mode, student
    code runs as this user and may put one there: a FIFO would block the run for good)."""
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        data = handle.read(POSTED_BYTES + 1)
    if len(data) > POSTED_BYTES:
        raise OSError(f"{path.name} is larger than any result")
    return data
