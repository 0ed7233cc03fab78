"""A killed run's copy of the class does not stay in /tmp; a live run's folders are never touched."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import scratch
from conftest import ROOT

pytestmark = pytest.mark.skipif(scratch.fcntl is None, reason="no flock here")
OLD = time.time() - 2 * scratch.SETTLE_SECONDS


def _age(folder: Path) -> Path:
    os.utime(folder, (OLD, OLD))
    return folder


def _made_by_a_killed_run(parent: Path) -> Path:
    """A scratch folder with a class copy in it, whose maker was then killed with SIGKILL."""
    code = ("import sys, time; from autograder.scratch import scratch\n"
            "with scratch('intake', sys.argv[1]) as work:\n"
            "    (work / 'ada').mkdir(); (work / 'ada' / 'residual.py').write_text('x = 1')\n"
            "    print(work, flush=True); time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(parent)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    folder = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert (folder / "ada" / "residual.py").is_file()
    return _age(folder)


def test_a_folder_is_removed_when_its_run_ends(tmp_path):
    with scratch.scratch("spool", str(tmp_path)) as work:
        (work / "result.json").write_text("{}")
        assert work.parent == tmp_path and work.name.startswith("gradient-kit-spool-")
    assert list(tmp_path.iterdir()) == []


def test_the_folder_of_a_killed_run_is_swept_with_what_it_held(tmp_path):
    folder = _made_by_a_killed_run(tmp_path)
    assert scratch.sweep_scratch(str(tmp_path)) == 1
    assert not folder.exists()


def test_a_running_run_keeps_its_folder_however_old(tmp_path):
    with scratch.scratch("intake", str(tmp_path)) as work:
        (work / "ada").mkdir()
        _age(work)
        assert scratch.sweep_scratch(str(tmp_path)) == 0
        assert (work / "ada").is_dir()


def test_a_fresh_folder_waits_however_free_its_lock(tmp_path):
    folder = _made_by_a_killed_run(tmp_path)
    os.utime(folder)  # just made: it may be between mkdtemp and its lock
    assert scratch.sweep_scratch(str(tmp_path)) == 0 and folder.exists()


def test_folders_not_made_here_are_left_alone(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    unlocked = tmp_path / "gradient-kit-hypothesis-abc"  # no lock file: an older kind, or not ours
    unlocked.mkdir()
    (unlocked / "keep.txt").write_text("mine")
    linked = tmp_path / "gradient-kit-intake-link"  # a link to someone's folder, named like ours
    linked.symlink_to(target)
    (target / scratch.HELD).write_text("")  # whose lock anyone could take
    held_link = tmp_path / "gradient-kit-intake-heldlink"  # a lock file that is a link
    held_link.mkdir()
    (held_link / scratch.HELD).symlink_to(target / scratch.HELD)
    for path in (target, unlocked, held_link):
        _age(path)
    os.utime(linked, (OLD, OLD), follow_symlinks=False)
    assert scratch.sweep_scratch(str(tmp_path)) == 0
    assert (unlocked / "keep.txt").is_file() and (target / "keep.txt").read_text() == "mine" and held_link.is_dir()


def test_a_sweep_of_a_folder_that_cannot_be_read_finds_nothing(tmp_path):
    assert scratch.sweep_scratch(str(tmp_path / "missing")) == 0
