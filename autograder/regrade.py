"""What changed between two graded runs, per student and per check: ``grade.py diff OLD NEW``."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import GradeError
from .model import BatchResult, StudentResult, batch_from_dict
from .render.inert import shown_id
from .view import points


def load_run(folder: Path) -> BatchResult:
    path = folder / "results.json"
    try:
        return batch_from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise GradeError(f"{path} is not a results.json written by grade ({type(error).__name__}).") from None


def _checks(student: StudentResult) -> dict[tuple[str, str], tuple[str, float, float]]:
    return {(e.name, t.name): (t.status, t.score, t.max_score) for e in student.exercises for t in e.tests}


def student_changes(old: StudentResult, new: StudentResult) -> list[str]:
    """One line per check whose status or points changed, and why where it is known."""
    lines = []
    before, after = _checks(old), _checks(new)
    for key in sorted(set(before) | set(after)):
        exercise, check = key
        if key not in before:
            lines.append(f"{exercise}/{check}: new check, {after[key][0]} ({points(after[key][1])}/{points(after[key][2])})")
        elif key not in after:
            lines.append(f"{exercise}/{check}: check removed (was {before[key][0]}, {points(before[key][1])} points)")
        elif before[key] != after[key]:
            (s0, p0, m0), (s1, p1, m1) = before[key], after[key]
            why = []
            if s0 != s1:
                why.append(f"{s0} -> {s1}")
            if m0 != m1:
                why.append(f"worth {points(m0)} -> {points(m1)}")
            lines.append(f"{exercise}/{check}: {points(p0)} -> {points(p1)} ({', '.join(why) or 'score changed'})")
    if old.status != new.status:
        lines.append(f"status: {old.status} -> {new.status}")
    return lines


def diff_runs(old: BatchResult, new: BatchResult) -> str:
    out = []
    if old.seed != new.seed:
        out.append(f"Seeds differ ({old.seed} -> {new.seed}): hidden checks drew different random inputs.")
    olds = {s.id: s for s in old.students}
    news = {s.id: s for s in new.students}
    changed = 0
    for sid in sorted(set(olds) | set(news)):
        shown = shown_id(sid)  # a student's folder name: no escape sequence reaches the terminal, no line is forged
        if sid not in olds:
            out.append(f"{shown}: new in this run, {points(news[sid].score)}/{points(news[sid].max_score)}")
        elif sid not in news:
            out.append(f"{shown}: not in the new run (was {points(olds[sid].score)}/{points(olds[sid].max_score)})")
        else:
            lines = student_changes(olds[sid], news[sid])
            if not lines and olds[sid].score == news[sid].score:
                continue
            o, n = olds[sid], news[sid]
            out.append(f"{shown}: {points(o.score)}/{points(o.max_score)} -> {points(n.score)}/{points(n.max_score)}")
            out.extend(f"  {line}" for line in lines)
        changed += 1
    out.append(f"{changed} of {len(set(olds) | set(news))} students changed." if changed else "No student's result changed.")
    return "\n".join(out) + "\n"
