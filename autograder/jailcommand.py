"""The bwrap command a worker starts with: what student code sees of the host, and nothing more.

The worker sees the Python runtime read-only (the interpreter, its library folders and numpy's),
the kit's worker files and a bounded private /tmp, under an unprivileged uid with no network,
a seccomp filter and, where bwrap can, no user namespaces of its own. A command that would show
the reference solutions is refused (:func:`check_hidden`).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from . import seccomp
from .limits import Limits

WORKER_DIR = Path(__file__).resolve().parent
WORKER_FILES = ("worker.py", "codec.py", "confinement.py", "draws.py", "forkserver.py", "tmpstate.py",
                "hatchery.py")
KIT_SECRETS = WORKER_DIR.parent / "solutions"  # where the reference lives in a full kit
SANDBOX_WORKER_DIR = "/opt/grader-worker"
NOBODY = 65534
# A trivial bwrap command finishes in milliseconds; the search's own probe waits as long (bwrap.py).
FEATURE_PROBE_SECONDS = 15


def runtime_paths() -> list[tuple[str, str]]:
    """(host path, where the worker sees it) for all it needs read-only to run Python with numpy.

    Only the interpreter, the venv's pyvenv.cfg and the library folders are shown, never a whole
    environment folder, where a course may keep the kit and its solutions. A path is shown where
    this Python knows it (a venv's ``bin/python`` link, through which the venv is found) and at
    its real place.
    """
    paths = sysconfig.get_paths()
    wanted = {os.path.abspath(sys.executable), str(Path(sys.executable).resolve()),
              paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"], numpy_path()}
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        wanted |= {os.path.join(prefix, "pyvenv.cfg"), os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")}
    pairs = set()
    for given in wanted:
        if given and os.path.exists(given):
            real = str(Path(given).resolve())
            pairs |= {(real, real), (real, os.path.abspath(given))}
    # /usr is bound whole; drop what it already covers and nested duplicates.
    kept: list[tuple[str, str]] = []
    for real, seen in sorted(pairs, key=lambda pair: pair[1]):
        if seen == "/usr" or seen.startswith("/usr/"):
            continue
        if any(seen.startswith(k + "/") or seen == k for _r, k in kept):
            continue
        kept.append((real, seen))
    return kept


def numpy_path() -> str:
    """The folder numpy was imported from here, or would be: the worker looks there too
    (PYTHONPATH, user site). Found without importing numpy, so that ``check`` can start its
    sandbox before it has paid for numpy itself (warmstart.py)."""
    import importlib.util
    import sys

    module = sys.modules.get("numpy")
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        spec = importlib.util.find_spec("numpy")
        origin = spec.origin if spec is not None else None
    if origin is None:
        raise ImportError("numpy is not installed for this Python")
    return str(Path(origin).resolve().parent.parent)


def check_hidden(command: list[str], secret: Path) -> None:
    """Refuse a sandbox that would show student code ``secret`` (the reference solutions)."""
    secret = secret.resolve()
    shown = [command[i + 1] for i, word in enumerate(command[:-1]) if word == "--ro-bind"]
    for source in shown:
        if secret == Path(source).resolve() or Path(source).resolve() in secret.parents:
            raise OSError(f"the kit's {secret} lies inside {source}, which the sandbox must show to student "
                          f"code; move the kit out of it (or the Python environment away from the kit)")


def python() -> str:
    # Not resolved: a venv's python is a link to the base interpreter, and only through the
    # link does it find the venv's site-packages (numpy) instead of the base's.
    return os.path.abspath(sys.executable)


def bwrap_command(bwrap_path: str, python: str, limits: Limits, status_fd: int | None = None,
                   seccomp_fd: int | None = None, env: dict[str, str] | None = None, caps: tuple[str, ...] = ()) -> list[str]:
    # bwrap reports the sandbox's start on status_fd: a worker that dies before it was never started.
    extra = ["--json-status-fd", str(status_fd)] if status_fd is not None else []
    extra += ["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []
    for cap in caps:
        extra += ["--cap-add", cap]
    prefix = bwrap_prefix(bwrap_path, limits)
    for key, value in (env or {}).items():
        prefix += ["--setenv", key, value]
    return prefix[:1] + extra + prefix[1:] + [python, "-I", "-B", f"{SANDBOX_WORKER_DIR}/worker.py"]


def readable(data: bytes) -> int:
    """A descriptor to read ``data`` from (a pipe, written and closed; the program is tiny)."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return read


@functools.lru_cache(maxsize=None)
def seccomp_program(binary: str) -> bytes | None:
    """The filter of :mod:`seccomp`, where this machine and this bwrap accept it."""
    program = seccomp.program()
    if program is None:
        return None
    descriptor = readable(program)
    try:
        probe = feature_probe([binary, "--seccomp", str(descriptor), "--ro-bind", "/", "/", "true"], (descriptor,))
    finally:
        os.close(descriptor)
    return program if probe is not None and probe.returncode == 0 else None


class BwrapSilent(OSError):
    """A bwrap that did not finish a trivial command in time: it hangs, or the host is far too
    busy. Never taken as "this feature is missing", which would start sandboxes without it."""


def feature_probe(command: list[str], pass_fds: tuple[int, ...] = ()) -> subprocess.CompletedProcess | None:
    """Run a trivial bwrap command; None if it cannot run at all (the feature is then absent)."""
    try:
        return subprocess.run(command, capture_output=True, timeout=FEATURE_PROBE_SECONDS, pass_fds=pass_fds)
    except subprocess.TimeoutExpired:
        raise BwrapSilent(f"{command[0]} did not answer within {FEATURE_PROBE_SECONDS} s") from None
    except (OSError, subprocess.SubprocessError):
        return None


@functools.lru_cache(maxsize=None)
def userns_lockdown(binary: str) -> tuple[str, ...]:
    """Flags that stop student code creating user namespaces, where this bwrap (>= 0.8) can.

    Nested namespaces would be charged to the quota of the user that runs bwrap (root, in CI):
    one student could fill it and make every classmate's sandbox fail to start.
    """
    flags = ("--unshare-user", "--disable-userns")
    helped = feature_probe([binary, "--help"])
    if helped is None or b"--disable-userns" not in helped.stdout:
        return ()
    probe = feature_probe([binary, *flags, "--ro-bind", "/", "/", "true"])
    return flags if probe is not None and probe.returncode == 0 else ()


@functools.lru_cache(maxsize=None)
def grants_admin(binary: str) -> bool:
    """Whether this bwrap gives its sandbox's first process CAP_SYS_ADMIN in the sandbox's user
    namespace (--cap-add, refused by a setuid bwrap and by some hosts). The worker uses it to make
    the host's device nodes read-only before it drops every capability (worker.py), and the
    hatchery to make each student's namespaces (hatchery.py)."""
    probe = feature_probe([binary, *userns_lockdown(binary), "--cap-add", "CAP_SYS_ADMIN", "--ro-bind", "/", "/", "true"])
    return probe is not None and probe.returncode == 0


def bwrap_prefix(bwrap_path: str, limits: Limits = Limits()) -> list[str]:
    command = [
        bwrap_path, "--die-with-parent", "--unshare-all", *userns_lockdown(bwrap_path), "--new-session",
        "--uid", str(NOBODY), "--gid", str(NOBODY),
        "--ro-bind", "/usr", "/usr",
        # /dev is read-only: its tmpfs (and /dev/shm in it) would otherwise be unbounded host RAM. So
        # is its /dev/pts, whose times and modes (its own and ptmx's) a worker could set for the next.
        "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", "--remount-ro", "/dev/pts",
        "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp", "--chdir", "/tmp",
        "--clearenv",
    ]
    for link in ("lib", "lib64", "bin", "sbin"):
        target = Path("/") / link
        if target.is_symlink():
            command += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            command += ["--ro-bind", str(target), f"/{link}"]
    for real, seen in runtime_paths():
        command += ["--ro-bind", real, seen]
    check_hidden(command, KIT_SECRETS)
    for name in WORKER_FILES:
        command += ["--ro-bind", str(WORKER_DIR / name), f"{SANDBOX_WORKER_DIR}/{name}"]
    for key, value in worker_env().items():
        command += ["--setenv", key, value]
    # Last, once every mount point is made: the root folder is bubblewrap's own tmpfs, unbounded host
    # RAM (half of it by default) that the student could otherwise fill. /tmp is a mount of its own.
    command += ["--remount-ro", "/"]
    return command


def worker_env() -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "GRADER_NUMPY_PATH": numpy_path()}
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = "1"
    # Some machines need the OpenBLAS pair to pick a working kernel; the run tag lets a test or an
    # operator trace any process back to the grading run that started it.
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "GRADER_RUN_TAG"):
        if var in os.environ:
            env[var] = os.environ[var]
    return env


def probe_command(bwrap_path: str) -> list[str]:
    return bwrap_prefix(bwrap_path) + [python(), "-I", "-c", "import numpy"]
