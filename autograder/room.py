"""How much room the host leaves the grader: processes and threads, and open files.

A worker that cannot start costs every student of the run their points (or, since the ready
byte, withholds them all), so where the room is too small the run is refused before anyone is
graded. Three limits bind: a pids cgroup (a container's --pids-limit, systemd's TasksMax), which
binds root too; the user's process limit (ulimit -u), which counts every task of the user and
binds everyone but root; and the open-files limit of this very process (a notebook kernel or a
service that calls the kit in its own process). Each figure below was measured on the sample class.
"""

from __future__ import annotations

import os

from .cgroup import TaskRoom, task_room

try:
    import resource
except ImportError:  # Windows
    resource = None

# Tasks (processes and threads) that grading starts, as a pids cgroup counts them, over the grader's
# own. Measured: check peaks at 5 with zygotes and 9 with --workers fresh (sandboxes of three tasks
# overlap: an exercise's worker, a plot's, and killed ones whose tasks the kernel has not yet
# released); on a loaded machine 12 free still failed now and then; grade --jobs 2 peaks near 30.
TASKS_PER_JOB = 16
TASKS_PER_POOL_PROCESS = 2  # a pool process and numpy's thread
TASKS_FOR_POOL = 8  # the pool's manager process and the threads that feed it


def tasks_needed(jobs: int) -> int:
    return TASKS_PER_JOB if jobs <= 1 else jobs * (TASKS_PER_JOB + TASKS_PER_POOL_PROCESS) + TASKS_FOR_POOL


def too_few_tasks(jobs: int, room: TaskRoom | None) -> str:
    """Why a pids cgroup (``room.folder``) or the user's process limit (no folder) leaves too little room, or ""."""
    needed = tasks_needed(jobs)
    if room is None or room.left >= needed:
        return ""
    fewer, jobs_said = ("", "") if jobs <= 1 else (" or grade with fewer --jobs", f" with {jobs} jobs")
    if room.folder is None:
        where, remedy = f"ulimit -u {room.limit}, which counts every process of this user", "raise it (ulimit -u)"
    else:
        where, remedy = f"pids.max {room.limit} in {room.folder}", "raise the limit (docker run --pids-limit, systemd TasksMax)"
    return (f"this machine lets the grader start only {max(room.left, 0)} more processes and threads ({where}), "
            f"and grading{jobs_said} needs {needed}; {remedy}{fewer}.")


# Files this process opens while grading: measured with check, from 14 files free failing to 18
# passing (a zygote's socket, a worker's pipes, its arena, its logs); a pool process opens its own.
FILES_PER_JOB = 20
FILES_PER_POOL_PROCESS = 4  # the pipes and sentinel of a pool process, on this side


def files_needed(jobs: int) -> int:
    return FILES_PER_JOB if jobs <= 1 else FILES_PER_JOB + jobs * FILES_PER_POOL_PROCESS


def too_few_files(jobs: int, open_now: int | None, limit: int | None) -> str:
    """Why this process (a notebook kernel, a service) holds too much of its open-files limit, or ""."""
    if open_now is None or limit is None or limit - open_now >= files_needed(jobs):
        return ""
    return (f"this process holds {open_now} of the {limit} files it may open, and grading needs "
            f"{files_needed(jobs)} more; close some, or raise the limit (ulimit -n) and start it again.")


def _open_files() -> tuple[int | None, int | None]:
    """How many files this process holds and may hold (the soft limit, already raised to the hard one)."""
    try:
        held = len(os.listdir("/proc/self/fd")) - 1  # less the listing's own
    except OSError:
        return None, None
    if resource is None:
        return held, None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return held, None if soft == resource.RLIM_INFINITY else soft


def user_task_room(proc: str = "/proc") -> TaskRoom | None:
    """The room the user's process limit (ulimit -u) leaves, counting the user's tasks in /proc;
    None for root (not bound by it) or where it cannot be read."""
    if resource is None or os.getuid() == 0:
        return None
    limit = resource.getrlimit(resource.RLIMIT_NPROC)[0]  # the soft one, raised to the hard one at start
    if limit == resource.RLIM_INFINITY:
        return None
    uid, tasks = str(os.getuid()), 0
    try:
        entries = [entry for entry in os.listdir(proc) if entry.isdigit()]
    except OSError:
        return None
    for entry in entries:
        try:
            with open(f"{proc}/{entry}/status", encoding="ascii", errors="replace") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue  # gone since the listing
        if fields.get("Uid", "").split()[:1] == [uid]:
            tasks += int(fields.get("Threads", "1").strip() or 1)
    return TaskRoom(limit - tasks, limit, None)


def shortfall(jobs: int) -> str:
    """Why the host leaves too little room for ``jobs`` students graded at once, or ""."""
    return too_few_tasks(jobs, task_room()) or too_few_tasks(jobs, user_task_room()) or too_few_files(jobs, *_open_files())
