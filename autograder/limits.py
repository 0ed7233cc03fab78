"""The limits every worker runs under, in both isolation modes."""

from __future__ import annotations

from dataclasses import dataclass


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
    open_files: int = 256  # each open file can hold a host-wide object (a pty, say): a few hundred at most
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
