"""The class dashboard, ``OUT/index.html``, and the same figures as ``OUT/summary.json``."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Callable

from ..classview import DashboardView, dashboard_view
from ..model import BatchResult
from .documents import environment


def render_dashboard(view: DashboardView, templates_dir: Path) -> str:
    return environment(str(templates_dir), True).get_template("dashboard.html.j2").render(dash=view)


def render_summary(view: DashboardView) -> str:
    data = asdict(view)
    for row in data["rows"]:  # the JSON keeps numbers; the sort key is the page's business
        row.pop("score_text")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def dashboard_files(batch: BatchResult, templates_dir: Path, link: Callable[[str], str]) -> dict[str, str]:
    """``index.html`` and ``summary.json``; ``link(student_id)`` is where the writer put that report.

    The whole-batch form; a class written one student at a time feeds :class:`autograder.classview.ClassTally`.
    """
    view = dashboard_view(batch, link)
    return {"index.html": render_dashboard(view, templates_dir), "summary.json": render_summary(view)}
