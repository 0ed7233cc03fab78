"""A control group around one worker and everything it starts, where the host lets us make one.

Per-process limits (address space, process count) do not bound a tree of processes: eight
children of 1 GiB each are 8 GiB, and under bubblewrap as root the process count is not
enforced at all. A cgroup bounds the whole tree's memory (its private /tmp included) and its
number of processes, and lists every member so that all of them can be killed, whatever they
renamed themselves to. This uses cgroup v1's ``pids`` and ``memory`` hierarchies (as root);
where they are missing or read-only the kit runs without, and the other limits still hold.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

V1_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("pids", "memory")


def _own_path(controller: str) -> str | None:
    """This process's cgroup in one v1 hierarchy, from /proc/self/cgroup."""
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _number, names, path = line.split(":", 2)
            if controller in names.split(","):
                return path
    except OSError:
        return None
    return None


@dataclass(frozen=True)
class WorkerCgroup:
    folders: tuple[Path, ...]

    @classmethod
    def create(cls, memory_bytes: int, processes: int) -> "WorkerCgroup | None":
        if os.getuid() != 0:
            return None
        name = f"gradient-kit-{os.getpid()}-{secrets.token_hex(4)}"
        folders = []
        try:
            for controller in CONTROLLERS:
                own = _own_path(controller)
                base = V1_ROOT / controller
                if own is None or not (base / "cgroup.procs").exists():
                    raise OSError("no such hierarchy")
                folder = base / own.lstrip("/") / name
                folder.mkdir()
                folders.append(folder)
            (folders[0] / "pids.max").write_text(str(processes))
            (folders[1] / "memory.limit_in_bytes").write_text(str(memory_bytes))
        except OSError:
            WorkerCgroup(tuple(folders)).remove()
            return None
        return cls(tuple(folders))

    def enter(self) -> None:
        """Called in the child before exec: it and all it starts belong to the group."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))

    def members(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            try:
                found |= {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return found

    def kill_all(self) -> None:
        """SIGKILL every member until none is left (a fork racing the kill is caught next round)."""
        for _round in range(50):
            members = self.members()
            if not members:
                break
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.01)
        self.remove()

    def remove(self) -> None:
        for folder in self.folders:
            for _attempt in range(20):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # members still exiting
