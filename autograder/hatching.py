"""Hatcheries: one warm sandbox per grading session, which hatches each student a sandbox of its own.

A zygote (zygote.py) pays for a sandbox, an interpreter and numpy's import once per student, about
0.15 s of CPU, which is a quarter of what grading a correct student costs. A :class:`Hatchery` pays
it once per session of students: its sandbox holds a process that has imported numpy and never
runs student code (``hatchery.py``), and each student's :class:`~autograder.zygote.Zygote` gets
from it, in a few milliseconds, a sandbox inside that one: new pid, mount, IPC, UTS and network
namespaces, a /tmp and a /proc of its own, no capabilities. Its first process is the student's
zygote, and forks the student's workers exactly as a zygote in a sandbox of its own does.

Nothing the hatchery says decides a verdict: it says which of its processes is the new sandbox's
first, and this side finds that process in /proc itself (its pid in the hatchery's namespace and
1 in its own) and holds it by a pidfd, so that the pid is never mistaken for a later process. A
hatchery that cannot start, or answer, or hatch a sandbox this side can find, is given up for the
rest of the session: each student then gets a sandbox of its own, as without hatcheries.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
from dataclasses import dataclass, field

from . import ending, sandbox
from .cgroup import WorkerCgroup
from .zygote import ANSWER_SECONDS, ask

END_SECONDS = 2.0  # a killed sandbox is gone in milliseconds; past this it is left to its cgroup or the hatchery's end


@dataclass
class Hatched:
    """A student's sandbox inside a hatchery; :class:`~autograder.zygote.Zygote` uses it as a started process."""

    pid: int  # its first process, the student's zygote, as this side sees it: the root of the tree whose CPU is read
    handles: tuple[int, ...]  # pidfds of that process and of the hatchery's fork that waits on it
    group: WorkerCgroup | None = None
    returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and _ended(self.handles[0], 0):
            self.returncode = -signal.SIGKILL
        return self.returncode

    def end(self) -> None:
        """Kill the sandbox's first process, which ends its pid namespace and everything in it."""
        for handle in self.handles:
            try:
                signal.pidfd_send_signal(handle, signal.SIGKILL)
            except OSError:  # gone already
                pass
        for handle in self.handles:
            _ended(handle, END_SECONDS)
            os.close(handle)
        self.handles = ()
        self.returncode = -signal.SIGKILL
        if self.group is not None:
            self.group.kill_all()


@dataclass
class Hatchery:
    """The warm sandbox of one grading session; :meth:`hatch` gives a student's sandbox, or None."""

    limits: sandbox.Limits
    bwrap_path: str
    _process: subprocess.Popen | None = None
    _control: socket.socket | None = None
    _failed: bool = False
    _hatched: int = field(default=0)

    def hatch(self, zygote_fd: int) -> Hatched | None:
        """A new sandbox whose first process serves as a zygote on the socket ``zygote_fd``; None
        where this hatchery cannot give one (then never again this session)."""
        if self._failed:
            return None
        if self._process is None and not self._start():
            self._failed = True
            return None
        # The first answer waits for the hatchery's own start (numpy's import) on a possibly busy host.
        wait = ANSWER_SECONDS if self._hatched else self.limits.wall_bound(self.limits.load_timeout)
        answer = ask(self._control, {"op": "hatch"}, (zygote_fd,), wait)
        hatched = self._found(answer) if answer is not None and answer.get("ok") is True else None
        if hatched is None:
            self._failed = True
            self.close()
            return None
        self._hatched += 1
        return hatched

    def close(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            ending.kill(self._process)  # its pid namespace ends, every student's sandbox in it too
            self._process = None

    def _start(self) -> bool:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._process = sandbox.spawn("bubblewrap", self.limits, self.bwrap_path, hatchery_fd=theirs.fileno())
        except (OSError, subprocess.SubprocessError):
            ours.close()
            return False
        finally:
            theirs.close()
        self._control = ours
        return True

    def _found(self, answer: dict) -> Hatched | None:
        """The sandbox the answer names, found in /proc under the hatchery and held by pidfds."""
        intermediate, first = answer.get("intermediate"), answer.get("init")
        if not all(isinstance(n, int) and not isinstance(n, bool) and n > 1 for n in (intermediate, first)):
            return None
        found = _descendants(self._process.pid)
        depth = len(found.get(self._process.pid, ())) + 1  # the hatchery's pid namespace, one below bwrap's
        forked = next((pid for pid, ns in found.items() if len(ns) == depth and ns[-1] == intermediate), None)
        init = next((pid for pid, ns in found.items()
                     if len(ns) == depth + 1 and ns[-2:] == (first, 1) and _parent(pid) == forked), None)
        if forked is None or init is None:
            return None
        try:
            handles = (os.pidfd_open(init), os.pidfd_open(forked))
        except (OSError, AttributeError):  # no pidfds (Linux before 5.3): no pid this side could trust
            return None
        group = WorkerCgroup.create(2 * self.limits.memory_bytes + self.limits.tmp_bytes, self.limits.processes + 4) \
            if sandbox.LINUX else None
        hatched = Hatched(init, handles, group)
        if group is not None:
            try:  # before the student's first worker is forked: all it starts is counted there
                for pid in (forked, init):
                    group.admit(pid)
            except OSError:
                hatched.end()
                return None
        return hatched


def _descendants(root: int, limit: int = 256) -> dict[int, tuple[int, ...]]:
    """Every process under ``root`` (as this side numbers them), with its pid in each namespace it is in."""
    found, pending = {}, [root]
    while pending and len(found) < limit:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/status", "rb") as handle:
                line = next(line for line in handle if line.startswith(b"NSpid:"))
            found[pid] = tuple(int(n) for n in line.split()[1:])
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                    pending += [int(child) for child in handle.read().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return found


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _ended(handle: int, seconds: float) -> bool:
    """Whether the process behind a pidfd has ended, waiting up to ``seconds`` for it to."""
    poller = select.poll()
    poller.register(handle, select.POLLIN)
    return bool(poller.poll(int(seconds * 1000)))
