"""Plots of a student's function on public inputs, declared by a grader and recorded by the plugin.

A grader may end with ``PLOTS = (PlotSpec(...), ...)``. Each curve lists *public* calls (literals
in the public grader, which ships to students anyway) and the expected values worked out from the
spec, never from the reference. After the exercise's checks the plugin makes those calls once,
on the trusted side, and stores plain numbers as :class:`~autograder.model.Plot` in the result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from .checks import call_text, is_real_number
from .plotdata import Plot, Series
from .problems import SandboxFailed, StudentProblem

MAX_POINTS = 200  # per series: bounds what a student's reply can put in results.json


def one_number(value, args) -> list:
    """The default reading: a call returns one number."""
    return [float(value) if is_real_number(value) else None]


@dataclass(frozen=True)
class Curve:
    label: str
    calls: tuple[tuple[tuple, dict], ...]  # public inputs only
    x: tuple[float, ...]
    expected: tuple[float, ...]
    read: Callable = one_number  # (returned value, args) -> list of numbers; runs here, on trusted data


@dataclass(frozen=True)
class PlotSpec:
    title: str
    function: str
    x_label: str
    y_label: str
    curves: tuple[Curve, ...]
    log_x: bool = False
    log_y: bool = True
    guides: tuple[tuple[str, float], ...] = field(default=())  # horizontal lines: (label, y)


def _finite(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def record(spec: PlotSpec, student) -> Plot:
    """Call the student on every public input of ``spec`` and keep what it returned, as numbers."""
    series, notes = [], []
    for curve in spec.curves:
        got: list[float | None] = []
        for args, kwargs in curve.calls:
            try:
                value = student.call(spec.function, *args, **kwargs).value
                got.extend(_finite(v) for v in curve.read(value, args))
            except StudentProblem as problem:
                # A public call, so its arguments may be named; the student saw the same call fail above.
                notes.append(f"{call_text(spec.function, *args, **kwargs)}: {problem.status}")
                got.extend([None] if len(curve.calls) > 1 else [])
                if problem.status == "timeout" or isinstance(problem, SandboxFailed):
                    raise  # a hanging function is not called again just to draw it; the host's failure is no note
            except Exception:  # noqa: BLE001  a reading the grader cannot make is a point not drawn
                got.append(None)
        if len(got) != len(curve.x) and len(curve.calls) == 1:
            notes.append(f"{curve.label}: returned {len(got)} values; the plot expects {len(curve.x)}")
        xs = tuple(curve.x[:MAX_POINTS])
        series.append(Series(f"expected, {curve.label}", "expected", xs, tuple(curve.expected[:MAX_POINTS])))
        series.append(Series(f"yours, {curve.label}", "student", xs[:len(got)], tuple(got[:len(xs)])))
    return Plot(spec.title, spec.x_label, spec.y_label, spec.log_x, spec.log_y, tuple(series),
                tuple(spec.guides), "; ".join(notes[:4]))


def record_all(specs, student) -> tuple[Plot, ...]:
    """Every plot of an exercise, or none once a call hangs.

    No time budget: it would make a report depend on the host's load, not on the seed. The
    cost is bounded instead by the calls declared, a few dozen against the checks' hundreds.
    """
    try:
        return tuple(record(spec, student) for spec in specs)
    except StudentProblem:
        return ()
