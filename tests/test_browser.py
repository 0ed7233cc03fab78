"""A student's report and the class dashboard in a real browser: headless Debian chromium.

Fails on any console message (the pages log nothing, so any message is an error or a failed
load), checks the key text in the DOM after scripts ran, and that the screenshot is not blank.
Skipped only where chromium is not installed, and never under CI=true, where .ci/run installs it.
The README's screenshots come from the same flags, on the whole sample class: docs/screenshots.sh.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from autograder.model import BatchResult
from autograder.output import write_batch
from autograder.runner import grade_batch
from conftest import ROOT, settings

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
STUDENTS = ("ben_carter", "amara_okafor", "hana_sato")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--enable-logging=stderr", "--v=0")

if CHROMIUM is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("chromium is missing on CI; .ci/run installs Debian's chromium package")
    pytestmark = pytest.mark.skip(reason="chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    students = [(sid, ROOT / "examples" / "class" / sid) for sid in STUDENTS]
    results = grade_batch(students, settings(), jobs=1)
    write_batch(BatchResult(20261129, "bubblewrap", tuple(results), "0.1.0", "2026-11-29T12:00:00+00:00",
                            "bubblewrap 0.8.0 (system)"), folder, ROOT / "templates")
    return folder


def browse(page: Path, profile: Path, *extra: str, anchor: str = "") -> tuple[str, list[str]]:
    """(stdout, console messages) of one headless chromium run on a fresh profile."""
    completed = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri() + anchor],
                               capture_output=True, text=True, timeout=120)
    console = [line for line in completed.stderr.splitlines() if ":CONSOLE" in line]
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout, console


def png_looks_drawn(path: Path) -> bool:
    """A blank page compresses to rows of one repeated byte; a drawn one does not."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            chunks.append(data[offset + 8:offset + 8 + length])
        offset += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    commonest = max(raw.count(bytes([b])) for b in set(raw[:100_000]))
    return len(set(raw)) > 64 and commonest / len(raw) < 0.97


@pytest.mark.parametrize("page,key_text", [
    ("reports/ben_carter.html", ("Gradient kit feedback", "ben_carter", "Norm at every layer", "<svg", "seed 20261129")),
    ("index.html", ("class dashboard", "Checks, hardest first", "Most frequent diagnosed misconceptions",
                    "hana_sato", "timed out in", 'data-sortable="ready"')),
])
def test_page_renders_without_console_errors(out, tmp_path, page, key_text):
    dom, console = browse(out / page, tmp_path / "profile", "--dump-dom")
    assert console == []
    for text in key_text:
        assert text in dom, text
    shot = tmp_path / "shot.png"
    _stdout, console = browse(out / page, tmp_path / "profile2", "--window-size=1100,1500", f"--screenshot={shot}")
    assert console == [] and png_looks_drawn(shot)


def test_the_student_table_sorts_in_the_browser(out, tmp_path):
    dom, console = browse(out / "index.html", tmp_path / "profile", "--dump-dom", anchor="#sort-1")
    assert console == []
    table = dom.split('id="student-table"', 1)[1]
    order = [sid for sid in re.findall(r'<td data-value="([^"]+)"><a ', table)]
    assert order[0] == "amara_okafor" and order[-1] == "hana_sato"  # by score, highest first


def test_the_blank_check_can_fail(tmp_path):
    blank = tmp_path / "blank.html"
    blank.write_text("<!doctype html><title>blank</title>")
    shot = tmp_path / "blank.png"
    browse(blank, tmp_path / "profile", "--window-size=400,300", f"--screenshot={shot}")
    assert not png_looks_drawn(shot)


def test_a_console_error_is_caught(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text("<!doctype html><title>x</title><script>undefinedFunction();</script>")
    _dom, console = browse(page, tmp_path / "profile", "--dump-dom")
    assert any("undefinedFunction" in line for line in console)
