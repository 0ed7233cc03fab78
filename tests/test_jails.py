"""Jails a killed grader left behind are removed by the next run, and nothing else is.

As root, each process-mode worker is shut in an empty folder of its own under /tmp. A grader
ended by SIGKILL cannot remove its workers' jails: thousands piled up on a course's server.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from autograder import jails

pytestmark = pytest.mark.host  # its outcome depends on the host: CI runs it again as a new user


def ended_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid  # reaped: no process has it until the kernel hands it out again


def aged(folder, seconds: float):
    folder.mkdir()
    then = time.time() - seconds
    os.utime(folder, (then, then))
    return folder


def test_a_jail_whose_maker_has_ended_is_removed_and_one_in_use_is_kept(tmp_path):
    gone, alive = ended_pid(), os.getpid()
    aged(tmp_path / f"grader-jail-{gone}-a1b2c3", jails.NAMED_AGE + 60)
    aged(tmp_path / f"grader-jail-{alive}-d4e5f6", jails.NAMED_AGE + 60)
    assert jails.sweep_jails(str(tmp_path)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"grader-jail-{alive}-d4e5f6"]


def test_a_new_jail_is_kept_even_where_its_maker_looks_ended(tmp_path):
    # A grader in another pid namespace sharing /tmp looks ended from here; its jail may not be entered yet.
    fresh = aged(tmp_path / f"grader-jail-{ended_pid()}-g7h8i9", 5)
    assert jails.sweep_jails(str(tmp_path)) == 0 and fresh.is_dir()


def test_only_empty_folders_named_as_jails_are_ever_removed(tmp_path):
    gone = ended_pid()
    full = tmp_path / f"grader-jail-{gone}-full"
    full.mkdir()
    (full / "keep.txt").write_text("not a jail's")
    then = time.time() - jails.UNNAMED_AGE - 60
    os.utime(full, (then, then))
    (tmp_path / f"grader-jail-{gone}-file").write_text("a file, not a folder")
    (tmp_path / f"grader-jail-{gone}-link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / f"other-{gone}-x").mkdir()
    assert jails.sweep_jails(str(tmp_path)) == 0
    assert (full / "keep.txt").exists() and (tmp_path / "elsewhere").is_dir() and (tmp_path / f"other-{gone}-x").is_dir()


def test_an_unnamed_jail_from_before_is_removed_only_once_an_hour_old(tmp_path):
    old = aged(tmp_path / "grader-jail-q8w7e6r5", jails.UNNAMED_AGE + 60)
    new = aged(tmp_path / "grader-jail-z1x2c3v4", jails.NAMED_AGE + 60)
    assert jails.sweep_jails(str(tmp_path)) == 1 and not old.exists() and new.exists()


def test_a_jail_is_named_for_the_process_that_made_it(tmp_path, monkeypatch):
    monkeypatch.setattr(jails.tempfile, "tempdir", str(tmp_path))
    made = jails.make_jail()
    assert os.path.basename(made).startswith(f"grader-jail-{os.getpid()}-") and os.path.isdir(made)
    assert jails.sweep_jails(str(tmp_path)) == 0 and os.path.isdir(made)


def test_a_name_that_only_looks_like_a_pid_never_stops_the_sweep(tmp_path):
    # Anyone may make folders in /tmp: twenty nines overflow kill(), and "²" is a digit to isdigit().
    for maker in ("99999999999999999999", "²", "4194305", "0"):
        aged(tmp_path / f"grader-jail-{maker}-x", jails.NAMED_AGE + 60)
    aged(tmp_path / f"grader-jail-{ended_pid()}-y", jails.NAMED_AGE + 60)
    assert jails.sweep_jails(str(tmp_path)) == 1  # only the real ended maker's; the others wait an hour as unnamed
    assert len(list(tmp_path.iterdir())) == 4
