"""Plots as plain data: what the plugin records, results.json stores and the HTML report draws."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Series:
    """One line of a plot: ``role`` is "expected" (from the spec) or "student"; None is not a finite number."""

    label: str
    role: str
    x: tuple[float, ...]
    y: tuple[float | None, ...]


@dataclass(frozen=True)
class Plot:
    """The student's function on public inputs against the spec, as numbers (drawn by the HTML report)."""

    title: str
    x_label: str
    y_label: str
    log_x: bool
    log_y: bool
    series: tuple[Series, ...] = ()
    guides: tuple[tuple[str, float], ...] = ()
    note: str = ""


def plot_from(data: dict) -> Plot:
    """A plot read back from plain data; numbers become tuples of floats (None stays None)."""
    series = tuple(Series(str(s["label"]), str(s["role"]), tuple(float(v) for v in s["x"]),
                          tuple(None if v is None else float(v) for v in s["y"])) for s in data.get("series", ()))
    guides = tuple((str(label), float(y)) for label, y in data.get("guides", ()))
    return Plot(str(data["title"]), str(data["x_label"]), str(data["y_label"]), bool(data["log_x"]),
                bool(data["log_y"]), series, guides, str(data.get("note", "")))
