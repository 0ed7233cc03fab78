"""Inside the sandbox: the zygote, a warm worker that never runs student code and forks one per exercise.

Runs on the worker's side, with only the standard library (mounted next to ``worker.py``). It has
imported numpy and what a student may use, dropped its privileges and left the network, like
any worker, but it loads no seccomp filter and no student file: it waits on a socket for the
grader's "fork" requests. Each carries the new worker's own request pipe, reply pipe and
shared-memory arena (passed as descriptors, so nothing of an earlier worker's channel reaches
the next). Before each fork the earlier child is killed and reaped, and, in a sandbox of its
own, every other process in it is killed, /tmp is emptied and System V IPC objects are removed,
so nothing a student's code leaves behind reaches its next exercise.

A child cannot reach the zygote's memory or descriptors: the zygote is not dumpable, so
/proc/<pid>/mem, opening /proc/<pid>/fd/* and ptrace are refused to processes of its own uid, and
the child loads the seccomp filter, which refuses new processes, before any student code runs.
What a child can do to a process of its own uid is signal it, or change what the kernel lets any
such process change and every fork inherits: resource limits (prlimit), niceness, CPU affinity,
scheduling and I/O priority, the OOM score. So before each fork the zygote compares all of that,
and what must be empty (/tmp under bubblewrap, System V IPC), with what it was at the start; if
anything differs it refuses to fork ("tainted"), and the grader starts the next worker in a fresh
sandbox (see ``autograder/zygote.py``), as it does for a zygote that is stopped, silent or gone.
It refuses too where a child moved the sandbox's counters, which no sweep puts back: the inode
number /tmp gives a new file, and the pid the next child gets (see :func:`_counters`).
"""

from __future__ import annotations

import ctypes
import json
import os
import platform
import resource
import signal
import socket

import tmpstate  # a sibling module, mounted next to this file in the sandbox

PR_SET_DUMPABLE = 4
IPC_RMID = 0
MAX_REQUEST = 1024
IPC_TABLES = (("sem", "semctl"), ("msg", "msgctl"), ("shm", "shmctl"))
MSG_INFO, SEM_INFO, SHM_INFO = 12, 19, 14
RLIMITS = 16  # RLIM_NLIMITS on Linux
IOPRIO_GET = {"x86_64": 252, "aarch64": 31}.get(platform.machine())
SCHED_GETATTR = {"x86_64": 315, "aarch64": 275}.get(platform.machine())
# Writable by a child of our uid (we are not dumpable, so our /proc files are owned by that uid),
# inherited by every fork: a child could pass bits on through them (coredump_filter), or slow its
# successors (the session's autogroup nice).
INHERITED_FILES = ("/proc/self/oom_score_adj", "/proc/self/comm", "/proc/self/timerslack_ns",
                   "/proc/self/coredump_filter", "/proc/self/autogroup")


def serve(control_fd: int, sweep: bool, inherited: tuple) -> tuple | None:
    """Fork workers on request. Returns None in the zygote when the grader is done, and the
    child's (request stream, reply stream, arena descriptor) in each child."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    for stream in inherited:  # the zygote's own pipes to the grader: unused, and no child's
        stream.close()
    control = socket.socket(fileno=control_fd)
    child = 0
    clean = _settings(libc, sweep)
    try:
        layout = tmpstate.layout() if sweep else None  # before any child: all the sandbox itself put there
        folders = tmpstate.folder_states(layout) if layout is not None else None
        counters = _counters(None) if sweep else (0, 0)
    except OSError:
        layout = folders = counters = None  # then no fork is clean: every worker starts in a fresh sandbox
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(control, MAX_REQUEST, 3)
        except OSError:
            data, fds = b"", []
        try:
            request = json.loads(data.decode()) if data else {}
        except ValueError:
            request = {}
        if not data:
            _reap(child)
            return None
        status = _reap(child)
        child = 0
        if request.get("op") == "fork" and len(fds) == 3:
            counters = _fit_to_fork(libc, sweep, clean, layout, folders, counters)
            pid = os.fork() if counters is not None else -1
            if pid == 0:
                control.close()
                return os.fdopen(fds[0], "rb", buffering=0), os.fdopen(fds[1], "wb", buffering=0), fds[2]
            if pid > 0 and sweep and counters[1] and pid != counters[1] + 1:
                _reap(pid)  # the child before it took pids (threads): this one knows how many, and runs nothing
                pid = -1
            if pid < 0:
                counters = None  # once moved, never clean again: the grader starts afresh
                reply = {"ok": False, "tainted": True}  # a child changed us: the grader starts afresh
                for fd in fds:
                    os.close(fd)
                _send(control, reply)
                continue
            child = pid
            counters = (counters[0], pid) if sweep else counters
            reply = {"ok": True}
        else:
            reply = {"ok": request.get("op") == "reap", "status": status}
        for fd in fds:
            os.close(fd)
        if not _send(control, reply):
            _reap(child)
            return None


def _fit_to_fork(libc, sweep: bool, clean: tuple, layout: frozenset | None, folders: dict | None,
                 counters: tuple | None) -> tuple | None:
    """The sandbox's counters to fork the next child with (:func:`_counters`), or None if the last
    child changed the sandbox in a way the sweep does not undo: then the grader starts afresh."""
    if counters is None or not _clean_again(libc, sweep, clean, layout, folders):
        return None
    if not sweep:
        return counters  # not a sandbox of our own: no counters of ours to look at
    try:
        return _counters(counters)
    except OSError:
        return None


def _clean_again(libc, sweep: bool, clean: tuple, layout: frozenset | None, folders: dict | None) -> bool:
    """Sweep up after the last child; whether we are now as we were at the start."""
    try:
        if sweep:
            _sweep(libc, layout, folders)
        return (_settings(libc, sweep) == clean and not _ipc_objects(libc)
                and (not sweep or (layout is not None and tmpstate.layout() == layout
                                   and tmpstate.folder_states(layout) == folders)))
    except OSError:  # /tmp made unreadable, say: a fresh sandbox is cheaper than finding out
        return False


def _counters(last: tuple | None) -> tuple | None:
    """The sandbox's counters: (the inode number a new /tmp file gets, the last child's pid, 0 when
    there was none). None, if the last child moved the inode counter: /tmp numbers every inode made
    there in turn, so one more than at the last look means no child made any. (The pid counter is
    looked at as the next child is forked: one more than the last child's, or the child is ended.)

    A sandbox's counters outlive its children: a child sent a hidden check's inputs could move
    them by those inputs (files made in /tmp, threads started), and the next exercise's worker,
    forked here, read them back in a public check. A fresh sandbox numbers both from the start."""
    probe = f"/tmp/.zygote-{os.getpid()}"
    descriptor = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        inode = os.fstat(descriptor).st_ino
    finally:
        os.close(descriptor)
        os.unlink(probe)
    if last is not None and inode != last[0] + 1:
        return None
    return inode, last[1] if last is not None else 0


def _send(control: socket.socket, reply: dict) -> bool:
    try:
        control.send(json.dumps(reply).encode())
    except OSError:
        return False
    return True


def _settings(libc, sweep: bool) -> tuple:
    """Ours, and, in a sandbox of our own whose first process is bubblewrap's (not us), that one's:
    it runs as our uid, so a child can set its limits, niceness and scheduling for the next child
    to read back (a red team passed a hidden depth through its RLIMIT_DATA)."""
    return _inherited_state(libc, 0), (_inherited_state(libc, 1) if sweep and os.getpid() != 1 else None)


def _inherited_state(libc, pid: int = 0) -> tuple:
    """What any process of our uid may change about process ``pid`` (0: us) from outside, and every
    fork of ours inherits."""
    limits = []
    for number in range(RLIMITS):  # by number: Python names only some of them (not RLIMIT_LOCKS)
        try:
            limits.append(resource.prlimit(pid, number))
        except (ValueError, OSError):
            limits.append(None)
    try:
        scheduling = (os.getpriority(os.PRIO_PROCESS, pid), tuple(sorted(os.sched_getaffinity(pid))),
                      os.sched_getscheduler(pid), os.sched_getparam(pid).sched_priority,
                      libc.syscall(IOPRIO_GET, 1, pid) if IOPRIO_GET else None, _sched_attributes(libc, pid))
    except OSError:
        scheduling = None
    files = []
    for path in INHERITED_FILES if pid == 0 else ():  # no /proc of another process here
        try:
            with open(path, "rb") as handle:
                files.append(handle.read())
        except OSError:
            files.append(None)
    return tuple(limits), scheduling, tuple(files)


def _sched_attributes(libc, pid: int = 0) -> bytes | None:
    """sched_getattr's whole answer (the slice a child may set with sched_setattr among it)."""
    if SCHED_GETATTR is None:
        return None
    buffer = ctypes.create_string_buffer(56)  # struct sched_attr as of Linux 5.3
    return buffer.raw if libc.syscall(SCHED_GETATTR, pid, buffer, 56, 0) == 0 else None


def _ipc_objects(libc) -> int:
    """How many System V IPC objects exist in our IPC namespace (asked of the kernel, no /proc needed)."""
    counts = (ctypes.c_int * 16)()
    total = 0
    if libc.msgctl(0, MSG_INFO, counts) >= 0:
        total += counts[0]  # msginfo.msgpool: the queues that exist
    counts = (ctypes.c_int * 16)()
    if libc.semctl(0, 0, SEM_INFO, counts) >= 0:
        total += counts[7]  # seminfo.semusz: the semaphore sets that exist
    counts = (ctypes.c_int * 16)()
    if libc.shmctl(0, SHM_INFO, counts) >= 0:
        total += counts[0]  # shm_info.used_ids
    return total


def _reap(child: int) -> int | None:
    """End the child, if any, and return how it ended (negative: the signal that killed it)."""
    if not child:
        return None
    try:
        os.kill(child, signal.SIGKILL)  # a child that already exited is a zombie: it keeps its status
    except ProcessLookupError:
        pass
    try:
        _pid, status = os.waitpid(child, 0)
    except ChildProcessError:
        return None
    return os.waitstatus_to_exitcode(status)


def _sweep(libc, layout: frozenset | None, folders: dict | None = None) -> None:
    """In a sandbox of our own: kill every process but init and us, empty /tmp (but for the folders
    the sandbox made there itself, see :func:`tmpstate.layout`), drop IPC objects."""
    try:
        os.kill(-1, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                break
        except ChildProcessError:
            break
    os.chdir("/tmp")
    if folders:
        tmpstate.restore_folders(folders)  # /tmp made read-only, say: writable again before it is emptied
    tmpstate.empty("/tmp", {entry[0] for entry in layout or ()})
    if folders:
        tmpstate.restore_folders(folders)  # emptying it changed its times
    for table, call in IPC_TABLES:
        try:
            with open(f"/proc/sysvipc/{table}") as handle:
                rows = handle.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit():
                if table == "sem":
                    getattr(libc, call)(int(fields[1]), 0, IPC_RMID, None)
                else:
                    getattr(libc, call)(int(fields[1]), IPC_RMID, None)
