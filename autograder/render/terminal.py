"""The terminal report a student reads after ``python grade.py``."""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..model import Status
from ..view import ExerciseView, ReportView

_STYLES = {Status.PASSED: "green", Status.FAILED: "red", Status.ERROR: "magenta", Status.TIMEOUT: "yellow",
           Status.PENDING: "dim"}


def _exercise(console: Console, exercise: ExerciseView, verbose: bool) -> None:
    colour = "green" if exercise.all_passed else ("red" if exercise.status != "missing" else "yellow")
    console.print(Text.assemble((f"{exercise.score:>7}  ", f"bold {colour}"), (exercise.name, "bold"),
                                (f"  {exercise.title}", "dim")))
    if exercise.message and exercise.status != "graded":
        console.print(Text(f"         {exercise.message}", style="yellow"))
        if exercise.status == "missing":
            return
    if exercise.common_problem:
        console.print(Text(f"          {exercise.common_problem}", style="red"))
        if exercise.common_hint:
            console.print(Text(f"          hint: {exercise.common_hint}", style="cyan"))
        for detail_line in exercise.common_detail.splitlines()[-6:]:
            console.print(Text(f"          | {detail_line}", style="dim"))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=3, justify="right")
    grid.add_column(width=5, justify="right")
    grid.add_column(ratio=1)
    for check in exercise.checks:
        if check.status == "passed" and not verbose:
            continue
        style = _STYLES.get(check.status, "")
        body = Text(check.description)
        if check.status == "pending":
            body.append(f"  ({check.label})", style="dim")
        if check.message and check.status != "pending":
            body.append(f"\n{check.message}", style=style)
        if check.hint:
            body.append(f"\nhint: {check.hint}", style="cyan")
        if check.detail and check.status == "error":
            for detail_line in check.detail.splitlines()[-6:]:
                body.append(f"\n| {detail_line}", style="dim")
        if check.output:
            shown = check.output.strip().splitlines()
            body.append(f"\nyour code printed {len(shown)} lines:", style="dim")
            for output_line in shown[:3] + (["..."] if len(shown) > 6 else []) + shown[max(3, len(shown) - 3):]:
                body.append(f"\n> {output_line[:200]}", style="dim")
        grid.add_row(Text(check.icon, style=style), Text(check.points, style="dim"), body)
    if grid.row_count:
        console.print(grid)
    passed = sum(c.status == "passed" for c in exercise.checks)
    if passed and not verbose:
        what = f"all {passed} checks" if passed == len(exercise.checks) else f"{passed} more check{'s' * (passed != 1)}"
        console.print(Text(f"    ✓       {what} passed", style="green dim"))


def render_terminal(view: ReportView, color: bool = False, width: int = 100, verbose: bool = False) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width,
                      color_system="standard" if color else None, highlight=False, soft_wrap=False)
    console.rule(f"[bold]Gradient kit: {escape(view.student_id)}")
    for exercise in view.exercises:
        _exercise(console, exercise, verbose)
        console.print()
    summary = Text.assemble(("Total ", "bold"), (view.score, "bold green" if view.percent == 100 else "bold"),
                            (f"  ({view.percent}%, {view.passed_checks} of {view.total_checks} checks passed)", ""))
    console.print(summary)
    if view.pending:
        console.print(Text(view.pending, style="dim"))
    console.print(Text(f"seed {view.seed} · isolation: {view.isolation}", style="dim"))
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
        table.add_row(escape(student_id), score, status)
    console.print(table)
    return buffer.getvalue()
