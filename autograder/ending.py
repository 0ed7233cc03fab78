"""Ending a worker and everything it started, and what it said on the way out.

:func:`kill` ends a worker however it was started (:mod:`autograder.sandbox`): its process group,
its cgroup, everything running as its own uid in process mode (:func:`_sweep`), its jail.
:func:`start_failure` and :func:`stderr_tail` read why a worker never started: what bubblewrap
reported outside the sandbox, and the end of the worker's own stderr.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess

from .proctree import process_table

# Process mode's bookkeeping: the workers this process started and has not yet killed, so that
# sweeping up orphans never touches a live worker.
LIVE_WORKERS: set[int] = set()


def start_failure(process: subprocess.Popen) -> str | None:
    """Why bubblewrap could not start this worker's sandbox, or None when it did start.

    Decided by what bwrap itself reported outside the sandbox (the child's pid, once it exists),
    which student code cannot reach; a worker that dies after that is the student's doing.
    """
    status = getattr(process, "bwrap_status", None)
    if status is None:
        return None
    os.set_blocking(status.fileno(), False)
    reported = b""
    for attempt in range(2):  # usually the sandbox started, and said so long ago: no need to wait
        try:
            reported += status.read(1 << 16) or b""
        except (BlockingIOError, OSError):
            pass
        if b'"child-pid"' in reported:
            return None
        if attempt == 0:
            try:
                process.wait(timeout=5)  # bwrap is on its way out: all it will say is written then
            except subprocess.TimeoutExpired:
                return None
    process.bwrap_log.seek(0)
    said = process.bwrap_log.read(4096).decode("utf-8", "replace").splitlines()
    reason = next((line for line in said if line.startswith("bwrap:")), "")[:300]
    return reason or f"bubblewrap exited with code {process.returncode} before starting it"


def _sweep(uid: int) -> None:
    """Process mode: kill everything running as the worker's own uid, and reap what it left us.

    The uid is unique to one worker, so this finds a student's daemon whatever it renamed itself
    to and wherever it was re-parented.
    """
    me = os.getpid()
    for _round in range(20):
        table = process_table()
        theirs = [pid for pid, _ppid, owner, state in table if owner == uid and state != "Z"]
        for pid in theirs:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid, ppid, _owner, state in table:
            if ppid == me and pid not in LIVE_WORKERS and (state == "Z" or pid in theirs):
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
        if not theirs:
            return


def stderr_tail(process: subprocess.Popen, limit: int = 2000) -> str:
    """The end of what the worker wrote to stderr (the host's reasons when it could not start)."""
    stream = getattr(process, "stderr_file", None)
    if stream is None:
        return ""
    try:
        size = stream.seek(0, os.SEEK_END)
        stream.seek(max(0, size - limit))
        return stream.read(limit).decode("utf-8", "replace").strip()
    except (OSError, ValueError):
        return ""


def kill(process: subprocess.Popen) -> None:
    """End the worker and everything it started: its whole process group, then reap it."""
    LIVE_WORKERS.discard(process.pid)
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except OSError:
        pass
    for stream in (process.stdin, process.stdout, getattr(process, "bwrap_status", None),
                   getattr(process, "bwrap_log", None)):
        try:
            if stream:
                stream.close()
        except OSError:
            pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    if getattr(process, "group", None) is not None:
        process.group.kill_all()
    if getattr(process, "worker_uid", None) is not None:
        _sweep(process.worker_uid)
        if getattr(process, "uid_lock", None) is not None:
            from .uids import release_uid

            release_uid(process.worker_uid, process.uid_lock)
            process.uid_lock = None
    if getattr(process, "jail", None):
        shutil.rmtree(process.jail, ignore_errors=True)
    stream = getattr(process, "stderr_file", None)
    if stream is not None:
        stream.close()
