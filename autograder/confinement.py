"""How a worker shuts itself in before any student code runs, where bubblewrap does not (process
mode) or cannot alone: a uid and an empty root of its own, no network, a seccomp filter, a bound on
its tasks, and death with its parent. Runs in the worker, on the untrusted side: only the standard
library is imported here.
"""

from __future__ import annotations

import os


def drop_privileges(spec: str) -> None:
    """Process mode as root: no network, an empty root folder, and a uid of our own.

    The uid is unique to this worker, so a student's kill(-1) or fork bomb reaches only its own
    processes; the chroot into an empty folder hides every file of the host.
    """
    import ctypes
    import resource

    uid, processes, jail = spec.split(":", 2)
    uid, processes = int(uid), int(processes)
    libc = ctypes.CDLL(None, use_errno=True)
    clone_newnet, clone_newns, clone_newipc = 0x40000000, 0x00020000, 0x08000000
    if libc.unshare(clone_newnet | clone_newns | clone_newipc) != 0:
        raise OSError(ctypes.get_errno(), "unshare failed")
    os.chroot(jail)
    os.chdir("/")
    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def refuse_calls(program_hex: str) -> None:
    """Process mode: load the seccomp filter bubblewrap would have applied (see seccomp.py)."""
    import ctypes

    program = bytes.fromhex(program_hex)

    class Program(ctypes.Structure):  # struct sock_fprog
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = Program(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_no_new_privs, pr_set_seccomp, seccomp_mode_filter = 38, 22, 2
    if (libc.prctl(pr_set_no_new_privs, 1, 0, 0, 0) != 0
            or libc.prctl(pr_set_seccomp, seccomp_mode_filter, ctypes.byref(fprog), 0, 0) != 0):
        raise OSError(ctypes.get_errno(), "the worker could not load its seccomp filter")


# Tasks, threads included, a sandbox may hold: its zygote, a worker per exercise and their threads,
# with room to spare. A student needs no thread; a flood of them would take every pid the grading
# user (or the host) has, since nothing else bounds threads without a cgroup.
SANDBOX_TASKS = 64


def cap_tasks() -> None:
    """Bound this sandbox's tasks where the kernel counts RLIMIT_NPROC per user namespace (Linux
    5.14 and later) and this process is in one of its own (bubblewrap's, or the one process mode
    leaves the network with): there the count is this sandbox's tasks alone. Elsewhere it is
    every process of the user on the host, and the grader sets the limit (sandbox._process_cap)."""
    import re
    import resource

    try:
        with open("/proc/self/uid_map") as handle:
            own = handle.read().split()[:3] != ["0", "0", "4294967295"]
    except OSError:
        return
    version = re.match(r"(\d+)\.(\d+)", os.uname().release)
    if not own or version is None or (int(version[1]), int(version[2])) < (5, 14):
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    cap = SANDBOX_TASKS if hard == resource.RLIM_INFINITY else min(SANDBOX_TASKS, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (cap, cap))


def leave_network() -> None:
    """Process mode without root: leave the network where user namespaces allow it."""
    import ctypes

    clone_newuser, clone_newnet = 0x10000000, 0x40000000
    ctypes.CDLL(None, use_errno=True).unshare(clone_newuser | clone_newnet)


def die_with(parent: int) -> None:
    """Die with the grader again: changing uid clears the parent-death signal the grader set."""
    import ctypes  # already loaded before any chroot

    pr_set_pdeathsig, sigkill = 1, 9
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, sigkill, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
