"""The terminal report a student reads after ``python grade.py``; every string in it is made inert."""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..model import Status
from ..view import ExerciseView, ReportView
from .inert import inert, one_line, plain, shown_id

_STYLES = {Status.PASSED: "green", Status.FAILED: "red", Status.ERROR: "magenta", Status.TIMEOUT: "yellow",
           Status.PENDING: "dim"}

def _exercise(console: Console, exercise: ExerciseView, verbose: bool) -> None:
    colour = "green" if exercise.all_passed else ("red" if exercise.status != "missing" else "yellow")
    console.print(Text.assemble((f"{exercise.score:>7}  ", f"bold {colour}"), (exercise.name, "bold"),
                                (f"  {exercise.title}", "dim")))
    if exercise.message:
        console.print(Text(f"         {exercise.message}", style="yellow"))
    if exercise.diagnosis:  # wrapped under its own indent, like the checks' messages below
        for text, style in ((exercise.diagnosis, "bold red"), (exercise.diagnosis_explanation, ""),
                            (f"hint: {exercise.diagnosis_hint}", "cyan")):
            console.print(Padding(Text(text, style=style), (0, 0, 0, 10)))
    if exercise.common_problem:
        console.print(Text(f"          {exercise.common_problem}", style="red"))
        if exercise.common_hint:
            console.print(Text(f"          hint: {exercise.common_hint}", style="cyan"))
        for detail_line in exercise.common_detail.splitlines():
            console.print(Text(f"          | {detail_line}", style="dim"))
    if exercise.folded and not verbose:
        console.print(Text(f"    ✓       {exercise.folded_text}", style="green dim"))
        return
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=3, justify="right", no_wrap=True)
    grid.add_column(width=5, justify="right", no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    for check in exercise.checks:
        style = _STYLES.get(check.status, "")
        body = Text(check.description)
        if check.hidden:
            body.append("  (hidden)", style="dim")
        if check.status == "pending":
            body.append(f"  ({check.label})", style="dim")
        if check.message:
            body.append(f"\n{check.message}", style=style)
        if check.hint:
            body.append(f"\nhint: {check.hint}", style="cyan")
        for detail_line in check.detail.splitlines():
            body.append(f"\n| {detail_line}", style="dim")
        if check.output:
            body.append("\nwhat your code printed:", style="dim")
            for output_line in check.output.splitlines():
                body.append(f"\n> {output_line}", style="dim")
        grid.add_row(Text(check.icon, style=style), Text(check.points, style="dim"), body)
    if grid.row_count:
        console.print(grid)


def render_terminal(view: ReportView, color: bool = False, width: int = 100, verbose: bool = False) -> str:
    view = inert(view)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width,
                      color_system="standard" if color else None, highlight=False, soft_wrap=False)
    console.rule(Text(f"Gradient kit: {one_line(view.student_id)}", style="bold"))
    console.print(Text("   ".join(f"{icon} {label}" for icon, label in view.legend), style="dim"))
    console.print()
    for exercise in view.exercises:
        _exercise(console, exercise, verbose)
        console.print()
    summary = Text.assemble(("Total ", "bold"), (view.score, "bold green" if view.percent == 100 else "bold"),
                            (f"  ({view.summary})", ""))
    console.print(summary)
    if view.pending:
        console.print(Text(view.pending, style="dim"))
    console.print(Text(view.footer, style="dim"))
    return _tidy(buffer.getvalue(), color)


def _tidy(text: str, color: bool) -> str:
    return text if color else "\n".join(line.rstrip() for line in text.split("\n"))


def render_class_summary(rows: list[tuple[str, str, str]], color: bool = False, width: int = 100) -> str:
    """A short table after a batch: id, score, status."""
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width,
                      color_system="standard" if color else None, highlight=False)
    table = Table(show_edge=False, box=None, pad_edge=False)
    for column in ("student", "score", "status"):
        table.add_column(column)
    for student_id, score, status in rows:
        table.add_row(escape(shown_id(student_id)), plain(score), plain(status))
    console.print(table)
    return buffer.getvalue()
