"""An exercise graded without running its checks, where every verdict is already known.

Before an exercise's checks run in pytest, each check's script is sent (:mod:`autograder.feed`),
in order, in the exercise's own worker. If every check is answered exactly as a check that
passed (:mod:`autograder.verdicts`), the exercise's report entries are the known passing entries
with what this student's code printed, and its plots are drawn as pytest would draw them; no
check's code runs. At the first check answered otherwise, pytest runs the exercise's checks
after all, in the same worker, each answered from the replies already read
(:meth:`~autograder.feed.Scripted.give_back`) and then from its own script: the student's worker
sees exactly the calls it would have seen, in the same order.
"""

from __future__ import annotations

import pytest

from . import grading, interrupts
from .drawing import draw_plots


def grade_exercise(config: pytest.Config, exercise: str, items: list[pytest.Item], tests: dict) -> bool:
    """Put the exercise's entries in ``tests`` (node id -> entry) if every verdict is known; False
    (and the module left begun, for pytest to go on with) if not."""
    run = grading.run_of(config)
    verdicts, scripts = run.verdicts, run.scripts
    if verdicts is None or scripts is None or run.recorder is not None or not items:
        return False
    if any(item.nodeid not in verdicts.entries or not scripts.get(exercise, item.nodeid) for item in items):
        return False
    module = grading.student_module(config, exercise)
    settled, outputs = [], []
    for item in items:
        interrupts.check()
        module.begin_script(item.nodeid)
        feed = module.prime()
        known, output = verdicts.output(item.nodeid, feed.digest if feed is not None else None)
        if not known or module.printed_unscripted:  # printed at import: shown by the check that runs
            module.give_back(settled, item.nodeid)
            grading.now(config).started[exercise] = module
            return False
        settled.append((item.nodeid, module.settle()))
        outputs.append(output)
    module.end_script()
    plots = getattr(items[-1].module, "PLOTS", ())
    drawn = draw_plots(config, exercise, plots, module) if plots else []
    module.close()
    for position, (item, output) in enumerate(zip(items, outputs)):
        last = position == len(items) - 1
        tests[item.nodeid] = verdicts.entry(item.nodeid, output, drawn if last else None,
                                            module.budget_spent if last else None,
                                            module.entry_digest if last else "")
    return True
