"""Hidden stays hidden, everywhere: grade part of a class, then search every output for what the
hidden checks fed the student, what the student returned to them and what the reference computed.

Every call a hidden check makes is recorded on the trusted side (the student's module is wrapped
in this process, the reference through a spying copy), so the search needs no knowledge of how
any grader draws its inputs and keeps working when the graders change.
"""

from __future__ import annotations

import json
import os
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from autograder import client
from autograder.model import BatchResult
from autograder.output import write_batch
from autograder.release import strip_hidden
from autograder.render.terminal import render_terminal
from autograder.runner import grade_batch
from autograder.view import report_view
from conftest import COURSE, GRADERS, ROOT, SOLUTIONS, settings

STUDENTS = ("chen_wei", "diana_lopez", "jade_morel", "hana_sato", "kofi_mensah")
HIDDEN = {check.name for e in COURSE
          for check in strip_hidden((GRADERS / f"test_{e.name}.py").read_text())[1]}

SPY = '''
import importlib.util, json, os
_spec = importlib.util.spec_from_file_location("_real", {source!r})
_real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_real)

def _plain(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {{k: _plain(v) for k, v in value.items()}}
    return value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)

def _spy(function):
    def spied(*args, **kwargs):
        result = function(*args, **kwargs)
        # A check's own calls only: the diagnosis, after the checks, also runs this module (with
        # a catalogued mistake appended) on the public checks' inputs, which are no secret.
        if not os.environ.get("PYTEST_CURRENT_TEST", "").endswith("(call)"):
            return result
        with open({log!r}, "a") as log:
            log.write(json.dumps(_plain([args, kwargs, result])) + "\\n")
        return result
    return spied

for _name in dir(_real):
    _value = getattr(_real, _name)
    if callable(_value) and not _name.startswith("_") and getattr(_value, "__module__", "") == "_real":
        globals()[_name] = _spy(_value)
'''


def spying_reference(folder: Path, log: Path) -> Path:
    folder.mkdir()
    for exercise in COURSE:
        source = SOLUTIONS / f"{exercise.name}.py"
        (folder / source.name).write_text(textwrap.dedent(SPY.format(source=str(source), log=str(log))))
    return folder


def numbers(value, found: list) -> list:
    """Every number inside a recorded value (arrays, lists, dicts, numpy scalars)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for item in value:
            numbers(item, found)
    elif isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        found.append(value)
    elif hasattr(value, "seed"):  # a recording generator: its seed is a hidden input
        found.append(value.seed)
    return found


def _simple(value: float) -> bool:
    """A short decimal, or a root of a small fraction: what simple public inputs give too (a
    drawn case starts from 0, 1 and 3 like a public one), never what a random draw gives."""
    if len(repr(value).lstrip("-").split("e")[0].replace(".", "").strip("0")) <= 8:
        return True
    if not 1e-150 < abs(value) < 1e150:
        return False
    square = value * value
    return abs(float(Fraction(square).limit_denominator(1000)) - square) <= 1e-12 * square


def needles(values: list) -> set[str]:
    """How a hidden number would read if it leaked: in full and at 6 digits, where that is distinctive."""
    found = set()
    for value in values:
        if isinstance(value, (int, np.integer)):
            if abs(int(value)) >= 100_000:
                found.add(str(int(value)))
            continue
        value = float(value)
        if not np.isfinite(value):
            continue
        if _simple(value):
            continue  # 0.5, 1.050625, sqrt(12) or 1/sqrt(3) follow from public cases as well
        for text, least in ((repr(value), 8), (f"{value:.6g}", 6)):
            digits = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
            if len(digits) >= least:  # 0.614271 comes from nowhere else; 1.4227 could
                found.add(text)
    return found


def forms(values: list) -> set[str]:
    """Every way a public number reads, simple or not, with or without its sign: a hidden number
    that reads the same at six digits (a hidden 1.0006283 and a plotted 1.000625 both read 1.00063),
    or only differs in sign (a hidden 1.41421 stands in a public -1.41421), cannot be told from it."""
    shown = set()
    for value in values:
        if isinstance(value, (int, np.integer)):
            shown |= {str(int(value)), str(abs(int(value)))}
        elif np.isfinite(float(value)):
            shown |= {text for v in (float(value), abs(float(value))) for text in (repr(v), f"{v:.6g}")}
    return shown


@pytest.fixture(scope="module")
def leaked_search(tmp_path_factory):
    work = tmp_path_factory.mktemp("hidden")
    log = work / "reference.log"
    reference = spying_reference(work / "reference", log)
    recorded: list = []
    public: list = []
    real_call = client.StudentModule.call

    def recording_call(self, function, *args, **kwargs):
        result = real_call(self, function, *args, **kwargs)
        current = os.environ.get("PYTEST_CURRENT_TEST", "")
        # Only the call phase: in teardown the plugin draws the plots, from public inputs.
        if current.split("::")[-1].split(" ")[0] in HIDDEN and current.endswith("(call)"):
            recorded.extend(numbers([list(args), kwargs, result.value], []))
        else:  # a public check or a plot may show these; a hidden case can meet the same simple input
            public.extend(numbers([list(args), kwargs, result.value], []))
        return result

    client.StudentModule.call = recording_call
    try:
        folders = [(sid, ROOT / "examples" / "class" / sid) for sid in STUDENTS]
        results = grade_batch(folders, settings(reference_dir=reference), jobs=1)
    finally:
        client.StudentModule.call = real_call
    for line in log.read_text().splitlines():
        recorded.extend(numbers(json.loads(line), []))
    # Plots draw public inputs only, and may show numbers the grader derived from what was returned.
    public.extend(v for r in results for e in r.exercises for p in e.plots for series in p.series
                  for v in series.y if v is not None)
    batch = BatchResult(20261129, "process", tuple(results), "0.1.0", "2026-11-29T00:00:00+00:00")
    out = work / "out"
    write_batch(batch, out, ROOT / "templates")
    texts = {str(p.relative_to(out)): p.read_text() for p in out.rglob("*") if p.is_file()}
    for student in batch.students:
        view = report_view(student, batch.seed, batch.isolation)
        texts[f"terminal {student.id}"] = render_terminal(view, width=100, verbose=True)
    return needles(recorded) - forms(public), texts, batch


def find(needle_set: set[str], texts: dict[str, str]) -> list[tuple[str, str]]:
    """Where a needle stands as a whole number (3.05655 is not in 13.056551 nor in 3.05655e-09, but
    is in "x=3.05655;")."""
    import re
    hits = []
    for name, text in texts.items():
        for needle in needle_set:
            # ... and not 9.76563e-09 for 9.76563: an exponent makes it another number.
            if needle in text and re.search(rf"(?<![\d.]){re.escape(needle)}(?![\d]|[eE][+-]?\d)", text):
                hits.append((name, needle))
    return hits


def test_the_search_has_something_to_look_for(leaked_search):
    found, _texts, batch = leaked_search
    assert len(found) >= 500  # 5 students x hidden checks of 40 to 200 calls each
    failed_hidden = [c for s in batch.students for e in s.exercises for c in e.tests
                     if c.visibility == "hidden" and c.status not in ("passed", "pending")]
    assert len(failed_hidden) >= 3  # the class does fail hidden checks, so there was something to leak


def test_the_search_finds_a_planted_leak(leaked_search):
    found, texts, _batch = leaked_search
    planted = sorted(found)[len(found) // 2]
    assert find({planted}, {"report": f"f() returned {planted}; expected 1.0"}) == [("report", planted)]
    assert find({"9.76563"}, {"plot": "<title>yours: 9.76563e-09</title>", "other": "19.765631"}) == []


def test_no_output_shows_a_hidden_input_a_hidden_result_or_the_reference_output(leaked_search):
    found, texts, _batch = leaked_search
    assert find(found, texts) == []

