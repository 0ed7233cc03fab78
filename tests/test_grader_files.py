"""The grader's own open files: however many it holds, workers start; a worker that cannot start leaves none behind.

A grader in a Jupyter kernel or beside a Dask client can hold hundreds of files. A worker may
open only a few hundred of its own, and before it runs those the grader holds are still open in
it. Once the grader held more than that, no worker started and every student lost every check as
"the grader itself failed"; each failed start also kept its pipes, arena and log file, so the
grader soon could open nothing at all.
"""

from __future__ import annotations

import os
import resource
import tempfile
from pathlib import Path

import pytest

from autograder import jails, sandbox
from autograder.cgroup import WorkerCgroup
from autograder.model import Status
from autograder.runner import grade_batch
from conftest import SOLUTIONS, settings

MODES = [mode for mode in sandbox.ISOLATIONS if mode == "process" or sandbox.bubblewrap_works()]


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def own_jails() -> set[Path]:
    """The jails this process made: it grades with jobs=1, and a jail carries its maker's pid. Other
    graders (the suite's other worker) make jails of their own meanwhile."""
    return set(Path(tempfile.gettempdir()).glob(f"{jails.PREFIX}{os.getpid()}-*"))


def grade(**overrides):
    (result,) = grade_batch([("reference", SOLUTIONS)], settings(exercises=("clipping",), **overrides), jobs=1)
    return result


@pytest.fixture
def many_files():
    """More files open here than a worker may open, at the lowest numbers a worker's own opens would take."""
    wanted = sandbox.Limits().open_files + 64
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted + 256:
        pytest.skip(f"this host lets a process open {soft} files; the test needs {wanted + 256}")
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(wanted)]
    yield held
    for descriptor in held:
        os.close(descriptor)


@pytest.mark.parametrize("workers", ["zygote", "fresh"])
@pytest.mark.parametrize("isolation", MODES)
def test_a_grader_holding_more_files_than_a_worker_may_open_still_gives_full_marks(many_files, isolation, workers):
    result = grade(isolation=isolation, workers=workers)
    failed = [(t.name, t.message) for e in result.exercises for t in e.tests if t.status != Status.PASSED]
    assert failed == [] and result.score == result.max_score > 0


@pytest.mark.parametrize("isolation", MODES)
def test_a_worker_that_cannot_start_leaves_no_file_folder_or_cgroup_behind(monkeypatch, isolation):
    def refuse(*args, **kwargs):
        raise OSError("the host refuses this start")

    made = []  # the cgroups made for the refused workers, where this host gives the kit cgroups

    def recorded(*args, **kwargs):
        group = create(*args, **kwargs)
        made.extend(group.folders if group is not None else ())
        return group

    create = WorkerCgroup.create
    monkeypatch.setattr(sandbox.WorkerCgroup, "create", recorded)
    left = own_jails()
    monkeypatch.setattr(sandbox, "_limit_resources", refuse)  # runs in the child: Popen itself fails
    first = grade(isolation=isolation)
    before = open_files()
    again = grade(isolation=isolation)
    assert open_files() == before  # not one more pipe, arena or log file for the second batch of failed starts
    assert own_jails() == left
    assert [folder for folder in made if folder.exists()] == []
    for result in (first, again):
        statuses = {t.status for e in result.exercises for t in e.tests}
        assert statuses == {Status.ERROR} and result.score == 0
        assert all("not your fault" in t.message for e in result.exercises for t in e.tests)
