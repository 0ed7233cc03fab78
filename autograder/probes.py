"""What the student's function was given and what it answered, call by call, for the diagnosis.

The ``student`` fixture hands checks a :class:`RecordingModule`: a
:class:`~autograder.client.StudentModule` that also keeps, for each call, a copy of its inputs
and the student's outcome (value, draw log, arguments after the call, or the exception's type).
:mod:`autograder.diagnose` replays these calls on the catalogued mistakes, on the trusted side.
Calls that timed out or crashed the worker say nothing about the function's behaviour and are
not kept.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import arena, codec
from .client import StudentModule
from .problems import StudentRaised

PER_CHECK = 40  # the first calls of each check, and its latest: enough for matching, bounded in memory
TOTAL = 1200
# Bytes of replies kept, per reply and in all: a worker may pad each reply up to the frame limit
# (a draw log of 30 MiB strings, with every answer right), and 1,200 of those kept would take the
# grader's memory and its classmates' grades with it. An honest reply is a few KiB.
PROBE_BYTES = 1 << 20
KEPT_BYTES = 64 << 20


@dataclass(frozen=True)
class Outcome:
    value: object = None
    raised: tuple[str, str] = ("", "")  # (type name, first built-in ancestor), or empty
    draws: tuple = ()
    args_after: list | None = None
    kwargs_after: dict | None = None
    warned: bool = False  # whether the call raised a warning (a division by zero, say)
    handed_back: tuple = ()  # where the arrays passed in that the result holds as they are were (arena.py)
    rng_states: tuple = ()  # where each generator passed was left (draws.state_of)


@dataclass(frozen=True)
class Probe:
    check: str
    hidden: bool  # a hidden check's call: used for matching, never shown
    function: str
    args: tuple
    kwargs: dict
    return_args: bool
    outcome: Outcome
    size: int = 0  # bytes of the reply it was read from


def builtin_ancestor(mro: tuple[str, ...]) -> str:
    """The first built-in class in a lineage of qualified names: what a caller's except sees."""
    return next((name for name in mro if name.startswith("builtins.")), "")


@dataclass
class RecordingModule(StudentModule):
    probes: list = field(default_factory=list)
    check: str = ""
    hidden: bool = False
    _counts: dict = field(default_factory=dict)
    _latest: dict = field(default_factory=dict)  # check -> where its call past the first PER_CHECK is kept
    _kept_bytes: int = 0

    def call(self, function: str, *args, return_args: bool = False, **kwargs):
        keep = bool(self.check) and (len(self.probes) < TOTAL or self.check in self._latest)
        sent = copy.deepcopy((args, kwargs)) if keep else None
        try:
            result = super().call(function, *args, return_args=return_args, **kwargs)
        except StudentRaised as exc:
            if keep:
                self._keep(function, sent, return_args, Outcome(raised=(exc.exc_type, builtin_ancestor(exc.exc_mro))))
            raise
        if keep and result.size <= PROBE_BYTES and self._kept_bytes + result.size <= KEPT_BYTES:
            self._keep(function, sent, return_args,
                       Outcome(value=result.value, draws=result.draws, args_after=result.args_after,
                               kwargs_after=result.kwargs_after, warned=bool(result.warnings),
                               handed_back=_handed_back(result.handed_back, args, kwargs),
                               rng_states=result.rng_states), result.size)
        return result

    def _keep(self, function: str, sent: tuple, return_args: bool, outcome: Outcome, size: int = 0) -> None:
        count = self._counts[self.check] = self._counts.get(self.check, 0) + 1
        probe = Probe(self.check, self.hidden, function, sent[0], sent[1], return_args, outcome, size)
        self._kept_bytes += size
        if count <= PER_CHECK:
            self.probes.append(probe)
        elif self.check in self._latest:  # past the first ones only the latest is kept: the call a
            replaced = self._latest[self.check]  # failed check stopped at (diagnose.select)
            self._kept_bytes -= self.probes[replaced].size
            self.probes[replaced] = probe
        else:
            self._latest[self.check] = len(self.probes)
            self.probes.append(probe)


def _handed_back(arrays: tuple, args: tuple, kwargs: dict) -> tuple:
    """As diagnose.py finds it for a mistake: among the arguments less the generators."""
    return arena.handed_back_paths(arrays, arena.array_paths(
        [a for a in args if not isinstance(a, codec.RngSpec)], {k: v for k, v in kwargs.items()
                                                                if not isinstance(v, codec.RngSpec)}))
