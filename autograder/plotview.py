"""Plots as drawing instructions: every coordinate and label an SVG needs, decided here.

The HTML template only writes ``<polyline>``/``<circle>``/``<text>`` elements from these; there is
no plotting library because a few dozen points per plot are cheaper to place by hand than to
import one (see README, "Plots").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .plotdata import Plot

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 12, 40


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Line:
    points: str  # "x1,y1 x2,y2 ..." for <polyline>
    label: str
    colour: int  # index into the palette, one per curve


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    colour: int
    title: str  # tooltip: the value in full
    off_chart: bool  # not a finite (or, on a log scale, not a positive) number: drawn on the bottom edge


@dataclass(frozen=True)
class Guide:
    y: float
    label: str


@dataclass(frozen=True)
class PlotView:
    title: str
    x_label: str
    y_label: str
    width: int
    height: int
    left: int
    bottom: int  # y coordinate of the x axis
    right: int  # x coordinate of the plot's right edge
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    lines: tuple[Line, ...]
    markers: tuple[Marker, ...]
    guides: tuple[Guide, ...]
    legend: tuple[tuple[str, int, str], ...]  # (label, colour, "line" | "dots")
    note: str
    description: str  # the plot in words, for screen readers


def _transform(value: float, log: bool) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    if log:
        return math.log10(value) if value > 0 else None
    return value


def _span(values: list[float]) -> tuple[float, float]:
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1e-12:
        low, high = low - 1, high + 1
    return low, high


def _number(value: float) -> str:
    return f"{value:.3g}"


def _ticks(low: float, high: float, log: bool, scale) -> tuple[Tick, ...]:
    if log:
        step = max(1, math.ceil((high - low) / 6))
        first = math.ceil(low)
        return tuple(Tick(scale(e), f"1e{e}" if e not in (0, 1) else ("1" if e == 0 else "10"))
                     for e in range(first, math.floor(high) + 1, step))
    raw = (high - low) / 5
    step = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step *= next(m for m in (1, 2, 5, 10) if step * m >= raw)
    start = math.ceil(low / step) * step
    return tuple(Tick(scale(start + i * step), _number(start + i * step))
                 for i in range(int((high - start) / step + 1e-9) + 1))


def plot_view(plot: Plot) -> PlotView:
    xs = [t for s in plot.series for x in s.x if (t := _transform(x, plot.log_x)) is not None]
    ys = [t for s in plot.series for y in s.y if (t := _transform(y, plot.log_y)) is not None]
    ys += [t for _, y in plot.guides if (t := _transform(y, plot.log_y)) is not None]
    x_low, x_high = _span(xs)
    y_low, y_high = _span(ys)
    if plot.log_y:
        y_low, y_high = math.floor(y_low), math.ceil(y_high)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def sx(t: float) -> float:
        return round(LEFT + (t - x_low) / (x_high - x_low) * (right - LEFT), 1)

    def sy(t: float) -> float:
        return round(bottom - (t - y_low) / (y_high - y_low) * (bottom - TOP), 1)

    lines, markers, legend, colours = [], [], [], {}
    for series in plot.series:
        curve = series.label.split(", ", 1)[-1]
        colour = colours.setdefault(curve, len(colours) % 4)
        pairs = [(_transform(x, plot.log_x), _transform(y, plot.log_y), y) for x, y in zip(series.x, series.y)]
        if series.role == "expected":
            drawn = " ".join(f"{sx(tx)},{sy(ty)}" for tx, ty, _ in pairs if tx is not None and ty is not None)
            lines.append(Line(drawn, series.label, colour))
            legend.append((series.label, colour, "line"))
        else:
            for tx, ty, y in pairs:
                if tx is None:
                    continue
                title = f"{series.label}: {'not a number' if y is None else f'{y:.6g}'}"
                markers.append(Marker(sx(tx), sy(ty) if ty is not None else float(bottom), colour, title, ty is None))
            legend.append((series.label, colour, "dots"))
    guides = tuple(Guide(sy(t), label) for label, y in plot.guides if (t := _transform(y, plot.log_y)) is not None)
    off = sum(m.off_chart for m in markers)
    note = "; ".join(part for part in (plot.note, f"{off} of your values are not positive finite numbers and sit on "
                                       "the bottom edge" if off else "") if part)
    return PlotView(
        title=plot.title, x_label=plot.x_label + (" (log scale)" if plot.log_x else ""),
        y_label=plot.y_label + (" (log scale)" if plot.log_y else ""), width=WIDTH, height=HEIGHT,
        left=LEFT, bottom=bottom, right=right,
        x_ticks=_ticks(x_low, x_high, plot.log_x, sx), y_ticks=_ticks(y_low, y_high, plot.log_y, sy),
        lines=tuple(lines), markers=tuple(markers), guides=guides, legend=tuple(legend), note=note,
        description=f"{plot.title}: your values as dots against the expected curves.")


def plot_views(plots) -> tuple[PlotView, ...]:
    return tuple(plot_view(p) for p in plots)
