"""The traceback a student reads for a call that raised: the frames of their own file, as the
standard library would summarize them, however the worker picks them out.

The worker is imported in a child interpreter: importing it puts its own folder first on sys.path
(its siblings are imported by their plain names, as in the sandbox), and in pytest's process that
folder's ``distributed.py`` would then stand for dask's package in every process spawned later.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

SCENARIOS = ("nested", "recursion", "inside_numpy", "chained", "direct", "outside_the_file")

CHILD = r'''
import json, linecache, sys, traceback
sys.path.insert(0, sys.argv[1])
import numpy as np
from autograder import worker

FILENAME = "student_file.py"
SOURCE = """
import numpy as np

def inner(x):
    return 1 / x

def outer(x):
    return inner(x) + 1

def deep(n):
    return deep(n - 1) if n else {}["end"]

def through_numpy(x):
    return np.asarray(x).reshape(-1, 7)

def chained(x):
    try:
        return inner(0)
    except ZeroDivisionError as exc:
        raise ValueError("kind must be he or xavier") from exc

def direct():
    raise RuntimeError("here")
"""
namespace = {}
linecache.cache[FILENAME] = (0, None, [], FILENAME)  # as the worker registers a loaded file
exec(compile(SOURCE, FILENAME, "exec", dont_inherit=True), namespace)


def standard(exc):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    lines = traceback.format_list(frames[-5:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines)[-3000:]


calls = {"nested": lambda: namespace["outer"](0), "recursion": lambda: namespace["deep"](40),
         "inside_numpy": lambda: namespace["through_numpy"](np.arange(10)),
         "chained": lambda: namespace["chained"](1), "direct": lambda: namespace["direct"](),
         "outside_the_file": lambda: {}["probe"]}
shown = {}
for name, call in calls.items():
    try:
        call()
    except BaseException as exc:
        shown[name] = [worker._error(exc, FILENAME)["traceback"], standard(exc)]
print(json.dumps(shown))
'''


@pytest.fixture(scope="module")
def shown() -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_raising_call_shows_the_frames_of_the_students_file_as_extract_tb_would(shown, scenario):
    got, standard = shown[scenario]
    assert got == standard
    if scenario == "outside_the_file":
        assert got == "KeyError: 'probe'\n"  # no frame of the worker's own
    else:
        assert 'File "student_file.py"' in got
