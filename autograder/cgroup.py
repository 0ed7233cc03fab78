"""A control group around one worker and everything it starts, where the host lets us make one.

Per-process limits (address space, process count) do not bound a tree of processes: eight
children of 1 GiB each are 8 GiB, and under bubblewrap as root the process count is not
enforced at all. A cgroup bounds the whole tree's memory (its private /tmp included) and its
number of processes, and lists every member so that all of them can be killed, whatever they
renamed themselves to.

Both hierarchies are supported. cgroup v1 (``pids`` and ``memory`` hierarchies, as root). cgroup
v2, the unified hierarchy of current distributions and GitHub's runners: as root under a
``gradient-kit`` folder at the top of the tree, or without root in a delegated subtree named by
``GRADIENT_KIT_CGROUP`` (for example one made by ``systemd-run --user -p Delegate=yes``). Where
neither can be had the kit runs without, and the other limits still hold.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("pids", "memory")
KIT_FOLDER = "gradient-kit"
DELEGATED_ENV = "GRADIENT_KIT_CGROUP"


def _own_paths(proc_cgroup: Path) -> dict[str, str]:
    """This process's cgroup per v1 controller, and under "" its v2 cgroup, from /proc/self/cgroup."""
    found: dict[str, str] = {}
    try:
        for line in proc_cgroup.read_text().splitlines():
            _number, names, path = line.split(":", 2)
            for name in names.split(",") if names else [""]:
                found[name] = path
    except (OSError, ValueError):
        return {}
    return found


def _is_v2(root: Path) -> bool:
    return (root / "cgroup.controllers").is_file()


def _v2_parent(root: Path) -> Path | None:
    """A v2 cgroup whose children may use the memory and pids controllers, made ready if we may."""
    delegated = os.environ.get(DELEGATED_ENV)
    if delegated:
        parent = Path(delegated)
    elif os.getuid() == 0:
        parent = root / KIT_FOLDER
        parent.mkdir(exist_ok=True)
    else:
        return None
    control = parent / "cgroup.subtree_control"
    enabled = control.read_text().split() if control.exists() else []
    missing = [c for c in CONTROLLERS if c not in enabled]
    if missing:
        # Fails where the parent holds processes itself (the "no internal processes" rule) or
        # its own parent does not offer the controller: then we run without a cgroup.
        control.write_text(" ".join(f"+{c}" for c in missing))
    return parent


@dataclass(frozen=True)
class WorkerCgroup:
    folders: tuple[Path, ...]
    version: int = 1

    @classmethod
    def create(cls, memory_bytes: int, processes: int, root: Path = CGROUP_ROOT,
               proc_cgroup: Path = Path("/proc/self/cgroup")) -> "WorkerCgroup | None":
        name = f"worker-{os.getpid()}-{secrets.token_hex(4)}"
        folders: list[Path] = []
        try:
            if _is_v2(root):
                parent = _v2_parent(root)
                if parent is None:
                    return None
                sweep_stale(parent, "")
                folder = parent / name
                folder.mkdir()
                folders.append(folder)
                (folder / "pids.max").write_text(str(processes))
                (folder / "memory.max").write_text(str(memory_bytes))
                if (folder / "memory.swap.max").exists():  # swap would let the tree outgrow memory.max
                    (folder / "memory.swap.max").write_text("0")
                return cls((folder,), 2)
            if os.getuid() != 0:
                return None
            own = _own_paths(proc_cgroup)
            for controller in CONTROLLERS:
                base = root / controller
                if controller not in own or not (base / "cgroup.procs").exists():
                    raise OSError("no such hierarchy")
                sweep_stale(base / own[controller].lstrip("/"), f"{KIT_FOLDER}-")
                folder = base / own[controller].lstrip("/") / f"{KIT_FOLDER}-{name}"
                folder.mkdir()
                folders.append(folder)
            (folders[0] / "pids.max").write_text(str(processes))
            (folders[1] / "memory.limit_in_bytes").write_text(str(memory_bytes))
        except OSError:
            WorkerCgroup(tuple(folders)).remove()
            return None
        return cls(tuple(folders), 1)

    def enter(self) -> None:
        """Called in the child before exec: it and all it starts belong to the group."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))

    def admit(self, pid: int) -> None:
        """Put a running process (and all it starts from now on) in the group."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as handle:
                handle.write(str(pid))

    def members(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            try:
                found |= {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
            except (OSError, ValueError):
                pass
        return found

    def kill_all(self) -> None:
        """SIGKILL every member until none is left (a fork racing the kill is caught next round)."""
        if self.version == 2:
            try:  # Linux 5.14+: the kernel kills the whole group at once, forks in flight included
                (self.folders[0] / "cgroup.kill").write_text("1")
            except OSError:
                pass
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
                except OSError as exc:
                    if exc.errno == errno.ENOTEMPTY:  # not a cgroup file system: nothing to wait for
                        break
                    time.sleep(0.02)  # members still exiting


@functools.lru_cache(maxsize=None)  # once per parent and process: a long run does not list it again
def sweep_stale(parent: Path, prefix: str) -> None:
    """Remove the groups left by graders that died without removing them (SIGKILL, a lost machine).

    Such a group is empty (its workers died with their grader) and named for a process that no
    longer exists. Left alone they pile up by the thousand on a busy host, and every new group is
    made among them. A group with members, or one named for a live process, is never touched;
    the kernel refuses to remove a group that still has members anyway.
    """
    name = re.compile(re.escape(prefix) + r"worker-(\d+)-[0-9a-f]{8}")  # as create() names them there
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        match = name.fullmatch(entry.name)
        if match is None or not entry.is_dir(follow_symlinks=False) or _alive(int(match.group(1))):
            continue
        try:
            os.rmdir(entry.path)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's, or no pid at all: left alone
        pass
    return True


@dataclass(frozen=True)
class TaskRoom:
    """How many more processes and threads this process's pids cgroup (or an ancestor) lets start."""

    left: int
    limit: int
    folder: Path | None  # None: the user's process limit, which room.py reads the same way


def task_room(root: Path = CGROUP_ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> TaskRoom | None:
    """The tightest pids.max over this process's cgroup and its ancestors (a container's
    --pids-limit, systemd's TasksMax), which binds root too; None where nothing limits it."""
    own = _own_paths(proc_cgroup)
    base = root if _is_v2(root) else root / "pids"
    path = own.get("" if _is_v2(root) else "pids")
    if path is None:
        return None
    folder, tightest = base / path.lstrip("/"), None
    while True:
        try:
            limit = (folder / "pids.max").read_text().strip()
            if limit != "max":
                room = TaskRoom(int(limit) - int((folder / "pids.current").read_text()), int(limit), folder)
                tightest = room if tightest is None or room.left < tightest.left else tightest
        except (OSError, ValueError):
            pass
        if folder == base or base not in folder.parents:
            return tightest
        folder = folder.parent
