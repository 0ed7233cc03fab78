"""``check`` without pytest, for a folder whose every verdict is already known.

``check`` keeps the day's scripts and verdicts in the user's cache (:mod:`autograder.scriptcache`),
with the passing report entry of every check (:mod:`autograder.verdicts`). Where they are there,
each exercise's checks are sent in one worker, in order, exactly as the shard loop's fast path
sends them (:mod:`autograder.fastpath`), and so are its plot calls; if every check, and every
plot, is answered exactly as one that passed, the report is those entries with what this
student's code printed. Nothing of the graders is imported and pytest is not started. At the
first answer that is not known, this gives up (None) and ``check`` grades the folder the full way.

A host that cannot run a worker cannot answer as a correct submission did, so a broken host gives
up here too, and meets the full way's proof of the sandbox.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import sandbox
from .budget import Budget
from .client import StudentModule
from .model import StudentResult, load_course
from .parse import parse_run
from .script import PLOTS, Scripts
from .scriptcache import path_for
from .settings import Settings
from .verdicts import Verdicts
from .zygote import Zygote


def grade_known(student_id: str, folder: Path, settings: Settings, warm: Zygote | None = None) -> StudentResult | None:
    """The student's result if every verdict of the exercises ``settings`` asks for is known; else None.
    ``warm``: a sandbox already started for these settings (warmstart.py), closed by the caller."""
    try:
        data = json.loads(path_for(settings).read_text(encoding="utf-8"))
        scripts, verdicts = Scripts.from_json(data["scripts"]), Verdicts.from_json(data["verdicts"])
        wanted = settings.exercises or tuple(e.name for e in load_course(settings.graders_dir))
        checks = {name: [str(n) for n in data["checks"][name]] for name in wanted}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    # Every check the graders hold must have passed before: a check that never did is graded the full way.
    if not all(checks.values()) or any(n not in verdicts.entries for nodeids in checks.values() for n in nodeids):
        return None
    limits = sandbox.Limits.for_call_timeout(settings.call_timeout, settings.memory_mb << 20)
    budget = Budget(limits.submission_seconds, "your whole submission")
    given = warm is not None and (warm.isolation, warm.bwrap_path, warm.limits) == (settings.isolation, settings.bwrap, limits)
    if not given:
        warm = Zygote(settings.isolation, limits, settings.bwrap) \
            if settings.workers == "zygote" and sandbox.zygote_possible(settings.isolation, settings.bwrap) else None
        if warm is not None:
            warm.start()
    tests: list[dict] = []
    try:
        for exercise, nodeids in checks.items():
            module = StudentModule(folder / f"{exercise}.py", exercise, settings.isolation, limits, settings.bwrap,
                                   submission_budget=budget, zygote=warm, scripts=scripts)
            try:
                entries = _known(module, exercise, nodeids, verdicts)
            finally:
                module.close()
            if entries is None:
                return None
            tests += entries
    finally:
        if warm is not None and not given:
            warm.close()
    return parse_run(student_id, folder, {"tests": tests, "collectors": []}, settings)


def _known(module: StudentModule, exercise: str, nodeids: list[str], verdicts: Verdicts) -> list[dict] | None:
    """The exercise's entries, each check's and its plots' answers known; None at the first that is not."""
    outputs = []
    for nodeid in nodeids:
        if module.scripts.get(exercise, nodeid) is None:
            return None
        module.begin_script(nodeid)
        feed = module.prime()
        known, output = verdicts.output(nodeid, feed.digest if feed is not None else None)
        if not known or module.printed_unscripted:  # printed at import: the full way shows it
            return None
        module.settle()
        outputs.append(output)
    drawn = None
    if exercise in verdicts.plots:  # the grader draws plots: they must be known too
        if not module.scripts.get(exercise, PLOTS):
            return None
        module.fresh_worker()
        module.begin_script(PLOTS)
        feed = module.prime()
        drawn = verdicts.plots[exercise].get(feed.digest) if feed is not None and feed.digest else None
        if drawn is None:
            return None
    last = len(nodeids) - 1
    return [verdicts.entry(n, o, drawn if i == last else None) for i, (n, o) in enumerate(zip(nodeids, outputs))]
