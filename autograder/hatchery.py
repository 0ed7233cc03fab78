"""Inside the sandbox: the hatchery, a warm process that hatches a fresh sandbox for each student.

Runs on the worker's side, with only the standard library (mounted next to ``worker.py``). Like a
zygote (``forkserver.py``) it has imported numpy and never runs student code; unlike one, it
serves a whole shard of students: for each it forks a process that leaves the hatchery's
namespaces for new ones of its own (processes, mounts, System V IPC, host name, network) and,
as the first process of its new pid namespace, mounts a new /tmp (bounded, like bubblewrap's),
covers /proc with an empty read-only folder, starts a session, drops every capability and closes
every descriptor but the one the grader sent for it. It then serves as that student's zygote, exactly as a zygote in a
sandbox of its own does. So numpy's import is paid once per shard, not once per student, and
no student's code shares a kernel counter with another's: each pid namespace numbers its
processes from 1, each /tmp its inodes, and per-process settings (niceness, limits, the core
dump filter, the autogroup) are the hatchery's own in every fork, which no student can reach:
the hatchery lives in a pid namespace a student cannot see.

The hatchery is given CAP_SYS_ADMIN in the sandbox's user namespace (bubblewrap's --cap-add),
which making namespaces and mounts needs; a student's processes never hold it: their first
process drops it (and every other) before it answers the grader, and with no_new_privs and a uid
that is not root in the user namespace, nothing can give it back. No student gets a procfs: it
would show the hatchery's processes where the kernel keeps the hatchery's /proc (bubblewrap started
by root), and anywhere it numbers its inodes from the host-wide counter (see _cover_proc).

Nothing the hatchery says decides a verdict: it answers where the new sandbox is (the grader
checks that in /proc itself), and the student's zygote proves itself by forking workers that
answer their loads.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import select
import socket
import stat
import struct

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x4000000, 0x8000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
LINUX_CAPABILITY_VERSION_3 = 0x20080522
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")  # the host's nodes bubblewrap's --dev binds
STATVFS_FLAGS = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
                 (getattr(os, "ST_NOATIME", 1024), 1024), (getattr(os, "ST_NODIRATIME", 2048), 2048),
                 (getattr(os, "ST_RELATIME", 4096), 1 << 21))
MAX_REQUEST = 1024
FURNISH_SECONDS = 10.0  # a hatch takes milliseconds; a busy host gets generous slack


def serve(control_fd: int, tmp_bytes: int, inherited: tuple, kept: tuple[int, ...] = ()) -> int | None:
    """Hatch a sandbox per request. Returns None in the hatchery when the grader is done, and, in
    a hatched sandbox's first process, the descriptor of its zygote's control socket (``kept``:
    descriptors that stay open there too, /dev/null)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE: nothing of ours for a process of our uid to read
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(control, MAX_REQUEST, 1)
        except OSError:
            data, fds = b"", []
        _reap_finished()
        if not data:
            return None
        try:
            request = json.loads(data.decode())
        except ValueError:
            request = {}
        if request.get("op") != "hatch" or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            if not _send(control, {"ok": False}):
                return None
            continue
        pid_read, pid_write = os.pipe()
        ready_read, ready_write = os.pipe()
        intermediate = os.fork()
        if intermediate == 0:
            os.close(pid_read)
            os.close(ready_read)
            control.close()
            for stream in inherited:  # the hatchery's own pipes to the grader: no student's
                stream.close()
            return _hatch(libc, fds[0], tmp_bytes, pid_write, ready_write, kept)
        for fd in (fds[0], pid_write, ready_write):
            os.close(fd)
        reply = _hatched(intermediate, pid_read, ready_read)
        os.close(pid_read)
        os.close(ready_read)
        if not _send(control, reply):
            return None


def _hatched(intermediate: int, pid_read: int, ready_read: int) -> dict:
    """The answer for the grader: where the new sandbox's first process is, once it is ready."""
    pid = _read_within(pid_read, 4)
    ready = _read_within(ready_read, 1)
    if len(pid) != 4 or ready != b"R":
        return {"ok": False, "intermediate": intermediate}
    return {"ok": True, "intermediate": intermediate, "init": struct.unpack("=i", pid)[0]}


def _read_within(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        ready, _, _ = select.select([fd], [], [], FURNISH_SECONDS)
        if not ready:
            return data
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return data
        data += chunk
    return data


def _hatch(libc, zygote_fd: int, tmp_bytes: int, pid_write: int, ready_write: int, kept: tuple[int, ...]) -> int:
    """In the process forked for a student: new namespaces, and their first process. Returns (in
    that first process only) the zygote's control descriptor; this process waits for it and ends."""
    libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)
    if libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET) != 0 or \
            libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        os._exit(1)  # the hatchery answers "not ok": the grader starts a sandbox of the student's own
    first = os.fork()
    if first == 0:
        os.close(pid_write)
        try:
            libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)
            _furnish(libc, tmp_bytes)
            _close_all_but(zygote_fd, ready_write, *kept)
            # Standard input, output and error (and ``kept``: /dev/null) were the hatchery's open file,
            # shared by every sandbox it hatched: locks, signal owners and flags set on it would
            # outlive a student. Each sandbox opens its own.
            fresh = os.open("/dev/null", os.O_RDWR)
            for fd in {0, 1, 2, *kept}:
                os.dup2(fresh, fd)
            os.close(fresh)
            os.write(ready_write, b"R")
            os.close(ready_write)
        except BaseException:  # noqa: BLE001 - never a half-furnished sandbox: the hatchery says "not ok"
            os._exit(1)
        return zygote_fd
    os.close(zygote_fd)
    os.close(ready_write)
    os.write(pid_write, struct.pack("=i", first))
    os.close(pid_write)
    _close_all_but()
    while True:
        try:
            os.waitpid(first, 0)
            break
        except ChildProcessError:
            break
        except InterruptedError:
            continue
    os._exit(0)


def _furnish(libc, tmp_bytes: int) -> None:
    """As the first process of the new namespaces: a /tmp of their own, an empty /proc, a session of
    their own, and no capability left."""
    if os.listdir("/tmp"):  # the sandbox binds a path under the host's /tmp (a Python there): a new
        raise OSError(errno.EBUSY, "/tmp holds the runtime")  # /tmp would hide it; each student gets a sandbox of its own
    # Bounded in files too, not only in bytes: an empty file holds about a kilobyte of kernel memory.
    _mount(libc, b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV,
           f"size={tmp_bytes},nr_inodes={max(1024, tmp_bytes // 4096)},mode=755".encode())
    # bubblewrap made one /dev/pts for the hatchery: a student could leave marks on it (its times,
    # its mode, ptmx's) for the next. Each sandbox gets an instance of its own, read-only, so that
    # no worker leaves any for the student's next worker either.
    _mount(libc, b"devpts", b"/dev/pts", b"devpts", MS_RDONLY | MS_NOSUID | MS_NOEXEC,
           b"newinstance,ptmxmode=0666,mode=620")
    _cover_proc(libc)
    os.setsid()
    os.chdir("/tmp")
    lock_down(libc)


def _cover_proc(libc) -> None:
    """An empty read-only folder over /proc: no student sees another process there, and none can
    have procfs number inodes for it (procfs takes each number from the host-wide counter that
    pipes use too: a worker that was sent a hidden input could move it by that input, and a later
    worker, in any sandbox, read it back). Nothing on the worker's side needs /proc once its
    first process has set its task limit (confinement.cap_tasks)."""
    _mount(libc, b"tmpfs", b"/proc", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=4096,mode=555")
    _mount(libc, None, b"/proc", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)


def lock_down(libc=None, cover_proc: bool = False) -> None:
    """The host's device nodes read-only (and /proc covered, with ``cover_proc``), then no capability,
    for good: the first thing a sandbox's first process does with the CAP_SYS_ADMIN bubblewrap gave it
    (worker.py), and the last a hatched sandbox's does. Raises where either cannot be done: then the
    sandbox does not start."""
    libc = libc or ctypes.CDLL(None, use_errno=True)
    # A mount namespace of our own first: one bubblewrap made as root is owned by the host's user
    # namespace, and only one owned by the sandbox's lets us remount anything.
    if libc.unshare(CLONE_NEWNS) != 0 or libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "a mount namespace of its own")
    _devices_read_only(libc)
    if cover_proc:
        _cover_proc(libc)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs")
    _drop_capabilities(libc)


def _devices_read_only(libc) -> None:
    """The device nodes bubblewrap binds from the host (/dev/null, /dev/zero, ...), read-only: still
    read and written as devices, but their mode and times, which are the host's own (and which a
    student whose uid is the host's root, as under bubblewrap started by root, could change), can
    no longer be changed from here."""
    for name in DEVICES:
        path = f"/dev/{name}"
        if os.path.exists(path) and stat.S_ISCHR(os.stat(path).st_mode):
            kept = os.statvfs(path).f_flag  # a remount must keep the flags it was given (locked ones above all)
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | sum(ms for st, ms in STATVFS_FLAGS if kept & st)
            _mount(libc, None, path.encode(), None, flags)


def _mount(libc, source, target, kind, flags: int, data=None) -> None:
    if libc.mount(source, target, kind, flags, data) != 0:
        raise OSError(ctypes.get_errno(), f"mount {target!r}")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _drop_capabilities(libc) -> None:
    """Empty the effective, permitted and inheritable sets (the ambient set empties with them),
    and make sure they are."""
    header, data = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    header, data = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0 or any(
            d.effective or d.permitted or d.inheritable for d in data):
        raise OSError(errno.EPERM, "capabilities left")


def _close_all_but(*kept: int) -> None:
    """Close every descriptor above standard error but ``kept`` (the hatchery's socket, its pipes)."""
    start = 3
    for fd in sorted(kept):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 1 << 16)


def _reap_finished() -> None:
    """The processes forked for students who are done (the grader ended them) are reaped here."""
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                return
        except ChildProcessError:
            return


def _send(control: socket.socket, reply: dict) -> bool:
    try:
        control.send(json.dumps(reply).encode())
    except OSError:
        return False
    return True
