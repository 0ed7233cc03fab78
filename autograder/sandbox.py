"""How a worker process is started: which isolation, which limits.

Two modes. ``bubblewrap``: the worker sees the Python runtime read-only and nothing else of the
host, with no network, its own pid namespace, a private /tmp and an unprivileged uid. ``process``
(where bubblewrap is missing): the same worker and limits in a new session, killed as a process
group; as root it unshares the network and drops to an unprivileged uid after its own imports.
The bwrap command itself (what the worker is shown of the host) is :mod:`autograder.jailcommand`'s.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from typing import Callable
from pathlib import Path

from . import bwrap, jailcommand, seccomp
from .cgroup import WorkerCgroup
from .ending import LIVE_WORKERS
from .jailcommand import WORKER_DIR
from .jails import make_jail
from .limits import Limits

try:
    import resource
except ImportError:  # Windows: no rlimits; the worker still runs in its own process
    resource = None

LINUX = sys.platform.startswith("linux")

ISOLATIONS = ("bubblewrap", "process")


def find_bwrap() -> bwrap.Search:
    """The bwrap that starts this Python with numpy here (system first, then bundled), or why none does."""
    return bwrap.cached_search(jailcommand.probe_command)


def bubblewrap_works() -> bool:
    return find_bwrap().found is not None


def best_isolation() -> str:
    return "bubblewrap" if bubblewrap_works() else "process"


def describe(isolation: str, bwrap_path: str = "") -> str:
    """The isolation record a report shows: the mode and, under bubblewrap, which bwrap."""
    if isolation != "bubblewrap":
        return isolation
    if bwrap_path:  # proved already: naming it needs no probe
        return bwrap.named(bwrap_path).describe()
    found = find_bwrap().found
    return found.describe() if found is not None else "bubblewrap"


PR_SET_PDEATHSIG = 1


@functools.lru_cache(maxsize=None)
def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when its parent dies; if the parent is already gone, end now."""
    if not LINUX:  # no parent-death signal elsewhere: the process group is killed instead
        return
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the prctl: no signal will ever come
        os._exit(1)


def _limit_resources(limits: Limits, max_processes: int | None, group: WorkerCgroup | None, parent: int) -> None:
    # Runs in the child between fork and exec: only async-signal-safe-ish calls (libc is loaded).
    die_with_parent(parent)
    # Into the cgroup before the open-file limit: this open must not depend on how many files the
    # grader holds (they are closed only after this function, and a grader with more open than
    # the worker may have would otherwise start no worker at all).
    if group is not None:
        group.enter()
    for kind, value in ((resource.RLIMIT_CPU, limits.cpu_seconds), (resource.RLIMIT_AS, limits.memory_bytes),
                        (resource.RLIMIT_FSIZE, limits.file_bytes), (resource.RLIMIT_CORE, 0),
                        (resource.RLIMIT_NOFILE, limits.open_files)):
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            if LINUX:
                raise
            # macOS refuses some limits (RLIMIT_AS above its hard maximum): best effort there.
    # Counted per real user, and root is exempt: as root in process mode the worker sets it after
    # dropping to its own uid; under bubblewrap as root only the cgroup's pids.max bounds forks.
    if max_processes is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (max_processes, max_processes))


PR_SET_CHILD_SUBREAPER = 36


@functools.lru_cache(maxsize=None)
def _become_subreaper() -> bool:
    """Orphans of a worker (a student's double fork) are re-parented to us, so we can end them."""
    return _libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def _is_root() -> bool:
    """Root of the host, not root of a user namespace (rootless containers, toolbox, LXC)."""
    if not (LINUX and os.getuid() == 0):
        return False
    try:
        return Path("/proc/self/uid_map").read_text().split()[:3] == ["0", "0", "4294967295"]
    except OSError:
        return False


def _process_cap(isolation: str, limits: Limits, forks_refused: bool) -> int | None:
    """RLIMIT_NPROC for the worker, which the kernel counts per real uid across the whole host.

    As root in process mode the worker sets it itself once it has a uid of its own. Under
    bubblewrap the seccomp filter refuses new processes, so none is needed; without the filter
    (an unknown architecture) the sandbox's uid is the grader's own without root, shared with
    every process of that user, and the cap is what the user runs now plus the worker's allowance.
    """
    if (_is_root() and isolation == "process") or (isolation == "bubblewrap" and forks_refused):
        return None
    if isolation == "bubblewrap" and LINUX:
        return _tasks_of(os.getuid()) + limits.processes + 2
    return limits.processes


def user_files_out_of_reach(isolation: str) -> bool:
    """Whether no worker can write the grading user's own files (their cache): under bubblewrap,
    whose sandbox shows no home, or in process mode as root, where each worker drops to a uid of its own."""
    return isolation == "bubblewrap" or (isolation == "process" and _is_root())


def zygote_possible(isolation: str, bwrap_path: str = "") -> bool:
    """Whether workers may be forked from a zygote here: only where the seccomp filter keeps every
    forked worker from starting processes of its own, which could outlive it into the next one.

    Not in process mode without root: there the process limit counts every task of the grading
    user on the host, so whether the zygote could fork would depend on what else the user runs.
    """
    if not LINUX or seccomp.program() is None:
        return False
    if isolation == "bubblewrap":
        found = bwrap_path or (find_bwrap().found.path if find_bwrap().found else "")
        try:
            return bool(found) and jailcommand.seccomp_program(found) is not None
        except jailcommand.BwrapSilent:  # then every start fails too, and says so where it does
            return False
    return isolation == "process" and _is_root()


def spawn(isolation: str, limits: Limits, bwrap_path: str = "", pass_fds: tuple[int, ...] = (),
          zygote_fd: int | None = None, hatchery_fd: int | None = None) -> subprocess.Popen:
    """Start one worker; the caller owns it and must call :func:`kill`.

    With ``zygote_fd`` (a socket, see :mod:`autograder.zygote`) the worker is a zygote: it loads
    no student file and forks one worker per request, each of which loads the seccomp filter
    itself (a filter on the zygote would keep it from forking). With ``hatchery_fd`` (bubblewrap
    only) it is a hatchery: a sandbox for many students, each hatched a sandbox of its own inside
    it, whose first process serves as that student's zygote (:mod:`autograder.hatching`).

    The worker (bwrap itself under bubblewrap) gets SIGKILL when this process dies; bwrap's
    --die-with-parent passes that on to the sandbox, whose pid namespace ends with it.
    ``pass_fds`` are inherited by the worker at the same numbers.

    Its stderr goes to an unlinked file: before the worker's own imports are done it holds the
    host's reasons (no numpy, bwrap refused), which :func:`stderr_tail` shows the operator.
    """
    undo: list[Callable[[], object]] = []  # what was made for a worker that did not start
    try:
        return _spawn(isolation, limits, bwrap_path, pass_fds, zygote_fd, undo, hatchery_fd)
    except BaseException:
        # A host that refuses every start (too many open files, a full disk) must not also
        # collect pipes, cgroups and jails for each refusal until the grader itself runs out.
        for step in reversed(undo):
            with contextlib.suppress(Exception):
                step()
        raise


def _spawn(isolation: str, limits: Limits, bwrap_path: str, pass_fds: tuple[int, ...], zygote_fd: int | None,
           undo: list[Callable[[], object]], hatchery_fd: int | None = None) -> subprocess.Popen:
    jail = uid = uid_lock = None
    status_read = status_write = None
    forks_refused = False
    passed: tuple[int, ...] = ()
    if isolation == "bubblewrap":
        if not bwrap_path:
            found = find_bwrap().found
            if found is None:
                raise OSError(f"bubblewrap cannot start here: {find_bwrap().reason}")
            bwrap_path = found.path
        status_read, status_write = os.pipe()
        undo += [functools.partial(os.close, status_read), functools.partial(os.close, status_write)]
        program = jailcommand.seccomp_program(bwrap_path)
        forks_refused = program is not None
        admin = jailcommand.grants_admin(bwrap_path)
        if hatchery_fd is not None and not admin:
            raise OSError("no hatchery where bwrap will not grant CAP_SYS_ADMIN in the sandbox")
        # The first process makes the host's device nodes read-only and drops every capability
        # before anything else runs (worker.py); the hatchery keeps its own (hatchery.py).
        zygote_env = {"GRADER_LOCK_DEVICES": "1"} if admin and hatchery_fd is None else {}
        if zygote_fd is not None or hatchery_fd is not None:
            if program is None:
                raise OSError("no zygote without the seccomp filter")
            zygote_env |= {"GRADER_ZYGOTE": str(zygote_fd), "GRADER_ZYGOTE_SWEEP": "1", "GRADER_SECCOMP": program.hex()} \
                if hatchery_fd is None else \
                {"GRADER_HATCHERY": str(hatchery_fd), "GRADER_TMP_BYTES": str(limits.tmp_bytes), "GRADER_SECCOMP": program.hex()}
            program = None
        filter_fd = jailcommand.readable(program) if program is not None else None
        if filter_fd is not None:
            undo.append(functools.partial(os.close, filter_fd))
        command = jailcommand.bwrap_command(bwrap_path, jailcommand.python(), limits, status_write, filter_fd, zygote_env,
                                            caps=("CAP_SYS_ADMIN",) if admin else ())
        passed = (status_write,) if filter_fd is None else (status_write, filter_fd)
        # bwrap's own environment is readable inside (/proc/1/environ): never the grader's.
        env = jailcommand.worker_env()
    elif isolation == "process":
        if hatchery_fd is not None:
            raise OSError("no hatchery without bubblewrap")
        if LINUX:
            _become_subreaper()
        command = [jailcommand.python(), "-I", "-B", str(WORKER_DIR / "worker.py")]
        env = jailcommand.worker_env()
        if LINUX and seccomp.program() is not None:  # the worker loads bwrap's filter itself
            env["GRADER_SECCOMP"] = seccomp.program().hex()
            forks_refused = True
        if _is_root():
            jail = make_jail()
            undo.append(functools.partial(shutil.rmtree, jail, ignore_errors=True))
            from .uids import reserve_uid  # POSIX only, as root only

            uid, uid_lock = reserve_uid()
            undo.append(functools.partial(_release_uid, uid, uid_lock))
            env["GRADER_DROP_PRIVILEGES"] = f"{uid}:{limits.processes}:{jail}"
        elif LINUX:
            env["GRADER_LEAVE_NETWORK"] = "1"
        if zygote_fd is not None:
            if not forks_refused:
                raise OSError("no zygote without the seccomp filter")
            env["GRADER_ZYGOTE"] = str(zygote_fd)  # no sweep: without a sandbox, kill(-1) would reach the host
    else:
        raise ValueError(f"unknown isolation {isolation!r}")
    # The tree's memory: the worker, a few children of its own, and its private /tmp.
    group = WorkerCgroup.create(2 * limits.memory_bytes + limits.tmp_bytes, limits.processes + 4) if LINUX else None
    if group is not None:
        undo.append(group.remove)
    # bwrap's own complaints and the worker's, until its imports are done (then /dev/null): the
    # host's reasons, which start_failure and stderr_tail read (student code runs only after that).
    stderr = tempfile.TemporaryFile()
    undo.append(stderr.close)
    posix = os.name == "posix"
    if LINUX:
        _libc()  # loaded here, not between fork and exec
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        env=env, cwd="/" if isolation == "process" and posix else None, start_new_session=posix,
        preexec_fn=functools.partial(_limit_resources, limits, _process_cap(isolation, limits, forks_refused), group,
                                     os.getpid()) if resource is not None else None,
        close_fds=True, pass_fds=(*passed, *pass_fds, *(fd for fd in (zygote_fd, hatchery_fd) if fd is not None)),
    )
    undo.clear()  # started: from here on it is kill()'s to undo
    process.stderr_file = stderr
    for descriptor in passed:
        os.close(descriptor)
    if status_write is not None:
        process.bwrap_status = os.fdopen(status_read, "rb", buffering=0)
        process.bwrap_log = stderr
    process.jail = jail  # removed again by kill()
    process.group = group
    process.worker_uid = uid if jail else None  # everything running as it is killed by kill()
    process.uid_lock = uid_lock
    LIVE_WORKERS.add(process.pid)
    return process


def _release_uid(uid: int, lock: int) -> None:
    from .uids import release_uid  # POSIX only

    release_uid(uid, lock)


def _tasks_of(uid: int) -> int:
    """How many tasks (threads included, as RLIMIT_NPROC counts them) run as ``uid``."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status", "rb") as handle:
                    fields = dict(line.split(b":", 1) for line in handle if line[:4] in (b"Uid:", b"Thre"))
                if int(fields[b"Uid"].split()[0]) == uid:
                    count += int(fields[b"Threads"])
            except (OSError, KeyError, ValueError):
                continue
    return count
