"""Grading a class across a pool of trusted processes, a shard of students per task.

A pool process never runs student code (its workers do, in their sandboxes); each result comes back
through a queue as soon as it is known, so the run stores it at once: a run killed halfway loses
only the students being graded at that moment.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import multiprocessing.managers
import os
import queue
import signal
from pathlib import Path
from typing import Callable

from . import sandbox
from .model import StudentResult, load_course
from .runner import Settings, failed_student, grade_shard, shards


def _start_mailbox(parent: int) -> None:
    """In the queue's manager: dies with the run, and leaves Ctrl-C to the run (it decides what an
    interruption means, not its mailbox)."""
    sandbox.die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_pool_process(parent: int) -> None:
    """In a pool process: dies with the run, and leaves at once on Ctrl-C.

    A terminal sends Ctrl-C to the whole group; the run decides what it means and shuts the pool
    down. A pool process keeps nothing of its own (results are stored by the run), and its workers
    die with it, so it simply ends: an idle one would otherwise die of KeyboardInterrupt in the
    pool's queue and print a traceback over the run's one-sentence message.
    """
    sandbox.die_with_parent(parent)
    signal.signal(signal.SIGINT, lambda _signum, _frame: os._exit(130))


def _grade_shard_into(students: list[tuple[str, Path]], settings: Settings, done) -> list[StudentResult]:
    """In a pool process: a shard, each result put on ``done`` (a queue the run reads) as soon as it is
    known, and all of them returned at the end (what a lost queue could not carry arrives then)."""
    def put(result: StudentResult) -> None:
        try:
            done.put(result)
        except (OSError, EOFError):  # the queue's manager is gone: the returned list still carries it
            pass
    return grade_shard(students, settings, put)


def grade_in_pool(students: list[tuple[str, Path]], settings: Settings, jobs: int,
                  on_done: Callable[[StudentResult], None]) -> list[StudentResult]:
    """Every student's result, in the order given; ``on_done`` gets each as soon as it arrives."""
    results: dict[str, StudentResult] = {}

    def arrived(result: StudentResult) -> None:
        if result.id not in results:
            results[result.id] = result
            on_done(result)

    pending = list(students)
    context = multiprocessing.get_context("spawn")
    # Results travel back one by one through a queue, so each is stored as soon as it is known.
    manager = multiprocessing.managers.SyncManager(ctx=context)
    manager.start(_start_mailbox, (os.getpid(),))
    try:
        done = manager.Queue()
        # A pool process that dies (it never runs student code, so only a grader bug or the OOM
        # killer can do that) breaks the pool: start a fresh one for whatever was not finished.
        for _attempt in range(2):
            if not pending:
                break
            # Pool processes die with this one, and take their workers with them (sandbox.spawn).
            with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                                        initializer=_start_pool_process,
                                                        initargs=(os.getpid(),)) as pool:
                futures = {pool.submit(_grade_shard_into, shard, settings, done)
                           for shard in shards(pending, settings.shard_size, jobs)}
                while futures:
                    finished, futures = concurrent.futures.wait(futures, timeout=0.2,
                                                                return_when=concurrent.futures.FIRST_COMPLETED)
                    _drain(done, arrived)
                    for future in finished:
                        try:
                            for result in future.result():  # what the queue has not brought yet, if anything
                                arrived(result)
                        except Exception:  # noqa: BLE001  (a broken pool: retried below)
                            continue
            pending = [(sid, folder) for sid, folder in pending if sid not in results]
    finally:
        manager.shutdown()
    course = load_course(settings.graders_dir)
    for sid, _folder in pending:
        arrived(failed_student(sid, course, "Grading this submission crashed the grader twice."))
    return [results[sid] for sid, _folder in students]


def _drain(done, arrived: Callable[[StudentResult], None]) -> None:
    while True:
        try:
            result = done.get_nowait()
        except (queue.Empty, OSError, EOFError):  # nothing yet, or no manager: the tasks' returns remain
            return
        arrived(result)
