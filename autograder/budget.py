"""How much running time a student's code may still take, per exercise and per submission.

Every wait on a worker (its start, its import, each call) is charged to the budgets of the
scopes it belongs to. Once a budget is spent, the checks left in that scope fail at once with a
timeout instead of waiting on code that has already shown it is far too slow.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class Budget:
    """Seconds the student's workers may keep the grader waiting within one scope."""

    seconds: float
    scope: str  # how the student reads it: "this exercise", "your whole submission"
    spent: float = 0.0
    # check answers several exercises at once (quickcheck.py), each charging the submission's budget.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def remaining(self) -> float:
        return max(self.seconds - self.spent, 0.0)

    def charge(self, seconds: float) -> None:
        with self._lock:
            self.spent += max(seconds, 0.0)
