"""The Markdown summary `check --markdown` appends to ($GITHUB_STEP_SUMMARY) when the disk fills up."""

from __future__ import annotations

import errno
import os
import shutil

from autograder import cli, summary
from conftest import SOLUTIONS


class FillsUpAfter:
    """The os module as summary.py sees it, on a disk with room for ``count`` more bytes."""

    def __init__(self, count: int) -> None:
        self.left = count

    def __getattr__(self, name):
        return getattr(os, name)

    def write(self, fd, data):
        if self.left <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = os.write(fd, bytes(data[:self.left]))
        self.left -= written
        return written


def test_a_summary_cut_off_by_a_full_disk_takes_back_what_it_added(monkeypatch, tmp_path):
    target = tmp_path / "summary.md"
    target.write_text("An earlier step's summary.\n")
    monkeypatch.setattr(summary, "os", FillsUpAfter(12))
    try:
        summary.append_text(target, "# Feedback for you\n" * 50)
    except OSError as error:
        assert error.errno == errno.ENOSPC
    else:
        raise AssertionError("the full disk was not said")
    assert target.read_text() == "An earlier step's summary.\n"


def test_a_summary_file_the_full_disk_kept_from_being_written_is_not_left_empty(monkeypatch, tmp_path):
    target = tmp_path / "new" / "summary.md"
    monkeypatch.setattr(summary, "os", FillsUpAfter(0))
    try:
        summary.append_text(target, "# Feedback for you\n")
    except OSError:
        pass
    assert not target.exists()


def test_check_on_a_full_disk_still_shows_the_report_and_says_why_in_one_sentence(capsys, monkeypatch, tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(SOLUTIONS / "scalar_chain.py", folder)
    target = tmp_path / "summary.md"
    target.write_text("kept\n")
    monkeypatch.setattr(summary, "os", FillsUpAfter(5))
    code = cli.main(["check", str(folder), "--seed", "1", "--markdown", str(target)])
    out, err = capsys.readouterr()
    assert code == cli.Exit.BAD_INPUT
    assert "scalar_chain" in out  # the student's report was not lost with the file
    assert err.startswith("error: No space left on device") and err.count("\n") == 1, err
    assert target.read_text() == "kept\n"
