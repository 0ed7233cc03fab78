"""One pytest session for a shard of submissions: configure and collect once, run the checks once per submission.

Each submission's run is exactly what a session of its own would run: the same items in the same
order (so the same node names, seeds and drawn cases), and its last item is run with no next item,
so pytest tears down every fixture, the session-scoped ones (the warm sandbox, the time budget)
included, before the next submission's first check sets them up afresh. What the plugin records
per submission is reset at the switch (:func:`autograder.plugin.begin_submission`), and the JSON
report's tests are taken per submission. Collection errors end the session before any check runs,
as pytest's own loop does; the caller then grades each submission in a session of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from pytest_jsonreport.plugin import JSONReport

from . import fastpath, grading, interrupts
from .plugin import begin_submission, exercise_of


class ShardReport(JSONReport):
    """pytest-json-report, handing over each submission's tests as soon as its run ends."""

    def take(self) -> dict:
        """The report of the submission just run, in the shape :func:`autograder.parse.parse_student` reads."""
        tests, self._json_tests = list(self._json_tests.values()), type(self._json_tests)()
        return {"tests": tests, "collectors": list(self._json_collectors)}


class ShardLoop:
    """Replaces pytest's run loop: every submission in turn runs the collected checks it asks for.

    ``exercises(folder)`` names the exercises to run for that submission (None: every one collected);
    ``on_report(index, report)`` receives the report of ``folders[index]`` as soon as it is graded.
    """

    def __init__(self, folders: list[Path], report: ShardReport, on_report: Callable[[int, dict], None],
                 exercises: Callable[[Path], set[str] | None] = lambda folder: None) -> None:
        self.folders, self.report, self.on_report, self.exercises = folders, report, on_report, exercises

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        if session.testsfailed and not session.config.option.continue_on_collection_errors:
            raise session.Interrupted(f"{session.testsfailed} errors during collection")
        if session.config.option.collectonly:
            return True
        for index, folder in enumerate(self.folders):
            wanted = self.exercises(folder)
            items = [item for item in session.items if wanted is None or exercise_of(item.module) in wanted]
            begin_submission(session.config, folder, following=index + 1 < len(self.folders))
            self.report.take()  # nothing of an earlier submission's run is carried into this one's report
            groups = _by_exercise(items)
            for number, (exercise, group) in enumerate(groups):
                if fastpath.grade_exercise(session.config, exercise, group, self.report._json_tests):
                    continue
                after = groups[number + 1][1][0] if number + 1 < len(groups) else None
                for position, item in enumerate(group):
                    # What an earlier submission's run left on the item (captured output, properties).
                    item._report_sections, item.user_properties = [], []
                    nextitem = group[position + 1] if position + 1 < len(group) else after
                    interrupts.check()  # a Ctrl-C that Python lost in a garbage collection: stop here
                    item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
                    if session.shouldfail:
                        raise session.Failed(session.shouldfail)
                    if session.shouldstop:
                        raise session.Interrupted(session.shouldstop)
            grading.end(session.config)
            report = self.report.take()
            _learn_entries(session.config, report)
            self.on_report(index, report)
        return True


def _by_exercise(items: list[pytest.Item]) -> list[tuple[str, list[pytest.Item]]]:
    """The items in order, in runs of one exercise each (a grader module's checks are collected together)."""
    groups: list[tuple[str, list[pytest.Item]]] = []
    for item in items:
        exercise = exercise_of(item.module)
        if groups and groups[-1][0] == exercise:
            groups[-1][1].append(item)
        else:
            groups.append((exercise, [item]))
    return groups


def _learn_entries(config: pytest.Config, report: dict) -> None:
    """The report entry of every check passed: what a check passed with a known verdict reads (verdicts.py)."""
    verdicts = grading.run_of(config).verdicts
    if verdicts is None:
        return
    for test in report["tests"]:
        if test.get("outcome") == "passed" and (test.get("metadata") or {}).get("status") == "passed":
            verdicts.learn_entry(test["nodeid"], test)
