"""Grading a class on an existing Dask cluster: ``grade ... --executor dask --scheduler tcp://HOST:PORT``.

Each task carries a shard of students' exercise files (bytes, read here; ``--shard-size`` of them,
fewer where the cluster would otherwise sit idle) and the trusted graders and reference (sent once
to every worker); a worker writes them to its own temporary folders and grades them in one pytest
session exactly as :func:`autograder.runner.grade_shard` does here, student code in the same
sandbox. A shard whose task fails twice (a worker lost) is sent again one student per task, and a
student whose own task fails gets a last one with the cluster to itself, so a student who brings
workers down costs only their own row. Results come back as plain data and every report is written on the instructor's side.
Workers need the kit installed (``pip install '.[dask]'``) and one thread each
(``dask worker --nthreads 1``): pytest runs in the worker process and is not thread-safe.
Before anyone is graded, every worker proves its sandbox on a known-good submission.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Callable

from . import preflight, sandbox
from .submission import LINKED, look, unreadable_message
from .errors import GradeError
from .model import StudentResult, load_course
from .runner import Settings, collected, failed_student, grade_one, grade_shard, shards
from .scratch import scratch


class ClusterProblem(GradeError):
    """The cluster cannot grade: unreachable, a worker with several threads, a sandbox that fails."""


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _student_files(folder: Path, names: tuple[str, ...], anchor: str = "") -> dict[str, tuple]:
    """Each exercise entry as the worker must recreate it, so that its checks say what they say here.

    Read as grading reads (:func:`autograder.submission.look`): a link is never followed, a FIFO
    never blocks, a file is read up to its limit and no further, and whatever the student swaps in
    meanwhile costs their own row, never the run."""
    files: dict[str, tuple] = {}
    for name in names:
        entry = look(folder / f"{name}.py", anchor=anchor)
        if entry.kind == "file":
            files[f"{name}.py"] = ("file", entry.data)
        elif entry.kind == "big":
            files[f"{name}.py"] = ("big", entry.size)  # refused by its size alone, never read
        elif entry.kind == "unreadable" and entry.reason != LINKED:
            raise Unreadable(unreadable_message(f"{name}.py", entry.reason))
        elif entry.kind != "missing":
            files[f"{name}.py"] = (entry.kind,)
    return files


class Unreadable(Exception):
    """A student file this host could not read: no worker can grade it, so it is not sent (never a 0)."""


def _recreate(path: Path, entry: tuple) -> None:
    kind = entry[0]
    if kind == "file":
        path.write_bytes(entry[1])
    elif kind == "big":
        with open(path, "wb") as handle:
            handle.truncate(int(entry[1]))
    elif kind == "link":
        os.symlink("/nonexistent/gradient-kit-link", path)
    elif kind == "dir":
        path.mkdir()
    elif kind == "other":
        os.mkfifo(path)
    # a link on the way to it (LINKED): left out here, so refused there as missing


@functools.lru_cache(maxsize=1)
def _worker_home() -> Path:
    """This worker process's own private folder, made once: pytest remembers the graders it imported
    by their path, so every task of the process must find them at the same path."""
    return Path(tempfile.mkdtemp(prefix="gradient-kit-worker-"))


def _materialise(kit: dict[str, dict[str, bytes]], digest: str) -> Path:
    """The trusted graders and reference, written afresh for every task: a copy kept from an earlier
    task could have been changed by that task's student (process isolation has no file system of
    its own) and would then grade this one."""
    target = _worker_home() / digest
    shutil.rmtree(target, ignore_errors=True)
    for part, files in kit.items():
        for relative, data in files.items():
            (target / part / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / part / relative).write_bytes(data)
    return target


def _worker_settings(settings: Settings, kit: Path) -> Settings:
    reference = kit / "solutions"
    return replace(settings, graders_dir=kit / "graders", reference_dir=reference if reference.is_dir() else None,
                   bwrap="", anchor="")  # each worker finds its own bwrap; the files are its own copies


def grade_remote_shard(shard: list[tuple[str, dict[str, tuple]]], kit: dict, digest: str,
                       settings: Settings) -> list[StudentResult]:
    """Runs on a worker: a shard of students in one pytest session, as :func:`grade_shard` grades here."""
    local = _worker_settings(settings, _materialise(kit, digest))
    with scratch("shard") as work:
        students = []
        for index, (student_id, files) in enumerate(shard):
            folder = Path(work) / str(index) / "submission"
            folder.mkdir(parents=True)
            for name, entry in files.items():
                _recreate(folder / Path(name).name, entry)
            students.append((student_id, folder))
        return grade_shard(students, local)


def prove_worker(settings: Settings) -> str:
    """Runs on every worker before grading: the same sandbox, proved on a known-good submission."""
    if settings.isolation == "bubblewrap" and sandbox.find_bwrap().found is None:
        raise RuntimeError(f"bubblewrap cannot start on this worker: {sandbox.find_bwrap().reason}")
    preflight.prove(settings.isolation, sandbox.Limits(call_timeout=settings.call_timeout,
                                                        memory_bytes=settings.memory_mb << 20))
    return sandbox.describe(settings.isolation)


def _connect(scheduler: str):
    try:
        from distributed import Client
    except ImportError:
        raise GradeError("--executor dask needs dask.distributed; install it with pip install '.[dask]'.") from None
    if not scheduler:
        raise GradeError("--executor dask needs --scheduler tcp://HOST:PORT, the address of the Dask scheduler.")
    try:
        return Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:
        raise ClusterProblem(f"cannot reach the Dask scheduler at {scheduler} ({error}).") from None


def check_cluster(client, settings: Settings) -> None:
    workers = client.scheduler_info().get("workers", {})
    if not workers:
        raise ClusterProblem("the Dask cluster has no workers.")
    threaded = [w for w, info in workers.items() if info.get("nthreads", 1) != 1]
    if threaded:
        raise ClusterProblem(f"{len(threaded)} Dask workers run several threads; start them with --nthreads 1.")
    try:
        client.run(prove_worker, settings)
    except Exception as error:  # noqa: BLE001  (any worker's failure is the host's problem)
        raise ClusterProblem(f"a Dask worker cannot grade: {error}".rstrip(".") + ".") from None


def grade_on_dask(students: list[tuple[str, Path]], settings: Settings, scheduler: str,
                  on_done: Callable[[StudentResult], None] = lambda result: None, client=None) -> list[StudentResult]:
    """:func:`deliver_on_dask`, with every result also returned in the order given (the class held at once)."""
    return collected(students, lambda keep: deliver_on_dask(students, settings, scheduler, keep, client), on_done)


def deliver_on_dask(students: list[tuple[str, Path]], settings: Settings, scheduler: str,
                    on_done: Callable[[StudentResult], None], client=None) -> None:
    """Grade every student on the cluster, each result to ``on_done`` as it comes; none is held here."""
    own = client is None
    client = client or _connect(scheduler)
    try:
        check_cluster(client, settings)
        course = load_course(settings.graders_dir)
        names = tuple(e.name for e in course)
        kit = {"graders": _tree(settings.graders_dir)}
        if settings.reference_dir is not None:
            kit["solutions"] = _tree(settings.reference_dir)
        digest = hashlib.sha256(repr(sorted((p, sorted(f.items())) for p, f in kit.items())).encode()).hexdigest()[:16]
        [kit_future] = client.scatter([kit], broadcast=True)
        gradable = []
        for sid, folder in students:
            if os.path.islink(folder) or not os.path.isdir(folder):
                on_done(grade_one(sid, folder, settings))  # refused without running anything
            else:
                try:
                    gradable.append((sid, _student_files(folder, names, settings.anchor)))
                except Unreadable as problem:  # withheld, as a local run withholds it, and read again next run
                    on_done(failed_student(sid, course, str(problem)))

        def submit(shard: list) -> object:
            return client.submit(grade_remote_shard, shard, kit_future, digest, settings, pure=False, retries=1,
                                 key=f"grade-{digest}-{os.urandom(6).hex()}")

        def deliver(done: list[StudentResult]) -> None:
            for result in done:
                on_done(result)
        workers = len(client.scheduler_info().get("workers", {}))
        _gather(submit, shards(gradable, settings.shard_size, workers), deliver, course)
    finally:
        if own:
            client.close()


def _gather(submit: Callable[[list], object], first: list[list], deliver: Callable[[list[StudentResult]], None],
            course) -> None:
    """Every shard's results, delivered as they come; a shard whose task failed is sent again one student
    per task, and a student whose own task failed gets a last one with the cluster to itself, since
    it may only have shared a worker with the one who brought it down."""
    from distributed import as_completed

    futures = {submit(shard): shard for shard in first}
    pending, last_chance = as_completed(list(futures)), []
    for future in pending:
        shard = futures.pop(future)
        try:
            done = future.result()
        except Exception:  # noqa: BLE001  (a worker lost twice)
            if len(shard) == 1:
                last_chance.append(shard[0])
            for student in shard if len(shard) > 1 else ():
                alone = submit([student])
                futures[alone] = [student]
                pending.add(alone)
            continue
        deliver(done)
    for student in last_chance:
        try:
            done = submit([student]).result()
        except Exception:  # noqa: BLE001
            done = [failed_student(student[0], course, "Grading this submission failed on the cluster every time "
                                                       "it was tried.")]
        deliver(done)
