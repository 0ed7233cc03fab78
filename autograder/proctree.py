"""What the kernel says about a worker's processes, read from /proc by the grader itself."""

from __future__ import annotations

import os

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(process) -> float | None:
    """CPU time used so far by the worker and every process under it, as the kernel counts it.

    Read by the grader from /proc, so student code cannot understate it; None once the worker
    is gone. Under bubblewrap the tree is bwrap, its init and the worker, plus what the student
    started; reaped children count through their parents' totals.
    """
    total, pending, seen = 0, [process.pid], 0
    while pending and seen < 64:
        pid = pending.pop()
        seen += 1
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            total += sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                    pending += [int(child) for child in handle.read().split()]
        except (OSError, IndexError, ValueError):
            if pid == process.pid:
                return None
    return total / CLOCK_TICKS


def process_table() -> list[tuple[int, int, int, str]]:
    """(pid, ppid, real uid, state) of every process we can read."""
    table = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/status", "rb") as handle:
                uid_line = next(line for line in handle if line.startswith(b"Uid:"))
        except (OSError, StopIteration, IndexError):
            continue
        table.append((int(entry), int(fields[1]), int(uid_line.split()[1]), fields[0].decode()))
    return table
