"""How a worker process is started: which isolation, which limits.

Two modes. ``bubblewrap``: the worker sees the Python runtime read-only and nothing else of the
host, with no network, its own pid namespace, a private /tmp and an unprivileged uid. ``process``
(where bubblewrap is missing): the same worker and limits in a new session, killed as a process
group; as root it unshares the network and drops to an unprivileged uid after its own imports.
"""

from __future__ import annotations

import functools
import os
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .cgroup import WorkerCgroup
from .proctree import process_table

WORKER_DIR = Path(__file__).resolve().parent
WORKER_FILES = ("worker.py", "codec.py", "draws.py")
SANDBOX_WORKER_DIR = "/opt/grader-worker"
NOBODY = 65534
ISOLATIONS = ("bubblewrap", "process")


@dataclass(frozen=True)
class Limits:
    """Per-worker resource limits; every mode applies them.

    ``call_timeout`` and ``load_timeout`` are seconds of CPU time, which a busy host does not
    eat into; the wall clock bounds a call only as a generous backstop (:meth:`wall_bound`). The
    budgets bound all the time a student's workers may keep the grader waiting, per exercise and
    per submission, so that a student slow on every call cannot stretch a run without end.
    """

    call_timeout: float = 3.0
    load_timeout: float = 15.0
    exercise_seconds: float = 60.0
    submission_seconds: float = 180.0
    shared_bytes: int = 16 << 20  # arrays a check wants to see again after the call (arena.py)
    wall_slack: float = 10.0  # wall-clock seconds a call may wait beyond its CPU time, at least
    cpu_seconds: int = 120
    memory_bytes: int = 1 << 30
    file_bytes: int = 1 << 20
    processes: int = 8  # a student needs none; a few keep fork bombs and fork-and-hoard small
    tmp_bytes: int = 64 << 20  # the private /tmp under bubblewrap is RAM: bound it
    reply_bytes: int = 32 << 20

    @classmethod
    def for_call_timeout(cls, call_timeout: float, memory_bytes: int) -> "Limits":
        """The limits for a chosen per-call timeout: the budgets grow with it, never below the defaults."""
        return cls(call_timeout=call_timeout, memory_bytes=memory_bytes,
                   exercise_seconds=max(cls.exercise_seconds, 20 * call_timeout),
                   submission_seconds=max(cls.submission_seconds, 60 * call_timeout))

    def wall_bound(self, cpu_seconds: float) -> float:
        """Wall-clock seconds after which a call that may use ``cpu_seconds`` of CPU is given up."""
        return max(3 * cpu_seconds, cpu_seconds + self.wall_slack)


def _runtime_paths() -> list[str]:
    """Folders the worker must see read-only to run Python with numpy."""
    import numpy

    candidates = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                  sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                  str(Path(numpy.__file__).resolve().parent.parent)}
    real = sorted({str(Path(p).resolve()) for p in candidates if p and Path(p).exists()})
    # /usr is bound whole; drop what it already covers and nested duplicates.
    kept: list[str] = []
    for path in real:
        if path == "/usr" or path.startswith("/usr/"):
            continue
        if any(path.startswith(k + "/") for k in kept):
            continue
        kept.append(path)
    return kept


def _python() -> str:
    return str(Path(sys.executable).resolve())


def _bwrap_command(python: str, limits: Limits) -> list[str]:
    return _bwrap_prefix(limits) + [python, "-I", "-B", f"{SANDBOX_WORKER_DIR}/worker.py"]


def _bwrap_prefix(limits: Limits = Limits()) -> list[str]:
    command = [
        "bwrap", "--die-with-parent", "--unshare-all", "--new-session",
        "--uid", str(NOBODY), "--gid", str(NOBODY),
        "--ro-bind", "/usr", "/usr",
        "--proc", "/proc", "--dev", "/dev", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp", "--chdir", "/tmp",
        "--clearenv",
    ]
    for link in ("lib", "lib64", "bin", "sbin"):
        target = Path("/") / link
        if target.is_symlink():
            command += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            command += ["--ro-bind", str(target), f"/{link}"]
    for path in _runtime_paths():
        command += ["--ro-bind", path, path]
    for name in WORKER_FILES:
        command += ["--ro-bind", str(WORKER_DIR / name), f"{SANDBOX_WORKER_DIR}/{name}"]
    for key, value in _worker_env().items():
        command += ["--setenv", key, value]
    return command


def _worker_env() -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1"}
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = "1"
    # Some machines need the OpenBLAS pair to pick a working kernel; the run tag lets a test or an
    # operator trace any process back to the grading run that started it.
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "GRADER_RUN_TAG"):
        if var in os.environ:
            env[var] = os.environ[var]
    return env


@functools.lru_cache(maxsize=None)
def bubblewrap_works() -> bool:
    """True when bwrap exists and can start the worker's Python here (user namespaces allowed)."""
    if shutil.which("bwrap") is None:
        return False
    probe = _bwrap_prefix() + [_python(), "-I", "-c", "import numpy"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def best_isolation() -> str:
    return "bubblewrap" if bubblewrap_works() else "process"


PR_SET_PDEATHSIG = 1


@functools.lru_cache(maxsize=None)
def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when its parent dies; if the parent is already gone, end now."""
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the prctl: no signal will ever come
        os._exit(1)


def _limit_resources(limits: Limits, count_processes: bool, group: WorkerCgroup | None, parent: int) -> None:
    # Runs in the child between fork and exec: only async-signal-safe-ish calls (libc is loaded).
    die_with_parent(parent)
    for kind, value in ((resource.RLIMIT_CPU, limits.cpu_seconds), (resource.RLIMIT_AS, limits.memory_bytes),
                        (resource.RLIMIT_FSIZE, limits.file_bytes), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(kind, (value, value))
    # Counted per real user, and root is exempt: as root in process mode the worker sets it after
    # dropping to its own uid; under bubblewrap as root only the cgroup's pids.max bounds forks.
    if count_processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
    if group is not None:
        group.enter()


# Process-level bookkeeping for process mode: the workers this process started and has not
# yet killed, so that sweeping up orphans never touches a live worker.
_LIVE_WORKERS: set[int] = set()
PR_SET_CHILD_SUBREAPER = 36


@functools.lru_cache(maxsize=None)
def _become_subreaper() -> bool:
    """Orphans of a worker (a student's double fork) are re-parented to us, so we can end them."""
    return _libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def spawn(isolation: str, limits: Limits, pass_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    """Start one worker; the caller owns it and must call :func:`kill`.

    The worker (bwrap itself under bubblewrap) gets SIGKILL when this process dies; bwrap's
    --die-with-parent passes that on to the sandbox, whose pid namespace ends with it.
    ``pass_fds`` are inherited by the worker at the same numbers.
    """
    jail = uid = None
    if isolation == "bubblewrap":
        command = _bwrap_command(_python(), limits)
        env = None
    elif isolation == "process":
        _become_subreaper()
        command = [_python(), "-I", "-B", str(WORKER_DIR / "worker.py")]
        env = _worker_env()
        if os.getuid() == 0:
            jail = tempfile.mkdtemp(prefix="grader-jail-")
            uid = 200_000 + secrets.randbelow(800_000)
            env["GRADER_DROP_PRIVILEGES"] = f"{uid}:{limits.processes}:{jail}"
        else:
            env["GRADER_LEAVE_NETWORK"] = "1"
    else:
        raise ValueError(f"unknown isolation {isolation!r}")
    # The tree's memory: the worker, a few children of its own, and its private /tmp.
    group = WorkerCgroup.create(2 * limits.memory_bytes + limits.tmp_bytes, limits.processes + 4)
    _libc()  # loaded here, not between fork and exec
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=env, cwd="/" if isolation == "process" else None, start_new_session=True,
        preexec_fn=functools.partial(_limit_resources, limits, isolation == "bubblewrap" or os.getuid() != 0, group,
                                     os.getpid()),
        close_fds=True, pass_fds=pass_fds,
    )
    process.jail = jail  # removed again by kill()
    process.group = group
    process.worker_uid = uid if jail else None  # everything running as it is killed by kill()
    _LIVE_WORKERS.add(process.pid)
    return process


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
            if ppid == me and pid not in _LIVE_WORKERS and (state == "Z" or pid in theirs):
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
        if not theirs:
            return


def kill(process: subprocess.Popen) -> None:
    """End the worker and everything it started: its whole process group, then reap it."""
    _LIVE_WORKERS.discard(process.pid)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except OSError:
        pass
    for stream in (process.stdin, process.stdout):
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
    if getattr(process, "jail", None):
        shutil.rmtree(process.jail, ignore_errors=True)
