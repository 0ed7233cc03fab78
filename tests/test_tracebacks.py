"""The traceback a student reads for a call that raised: the frames of their own file, as the
standard library would summarize them, however the worker picks them out."""

from __future__ import annotations

import linecache
import traceback

import numpy as np
import pytest

from autograder import worker

FILENAME = "student_file.py"

SOURCE = '''
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
'''


def _module() -> dict:
    namespace: dict = {}
    linecache.cache[FILENAME] = (0, None, [], FILENAME)  # as the worker registers a loaded file
    exec(compile(SOURCE, FILENAME, "exec", dont_inherit=True), namespace)
    return namespace


def _as_the_standard_library_says(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    lines = traceback.format_list(frames[-5:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines)[-3000:]


@pytest.mark.parametrize("call", [
    lambda m: m["outer"](0),
    lambda m: m["deep"](40),
    lambda m: m["through_numpy"](np.arange(10)),
    lambda m: m["chained"](1),
    lambda m: m["direct"](),
], ids=["nested", "recursion", "inside_numpy", "chained", "direct"])
def test_a_raising_call_shows_the_frames_of_the_students_file_as_extract_tb_would(call):
    module = _module()
    with pytest.raises(BaseException) as info:
        call(module)
    got = worker._error(info.value, FILENAME)["traceback"]
    assert got == _as_the_standard_library_says(info.value)
    assert f'File "{FILENAME}"' in got


def test_an_error_outside_the_students_file_shows_no_frame_of_the_worker():
    try:
        {}["probe"]
    except KeyError as exc:
        got = worker._error(exc, FILENAME)["traceback"]
    assert got == "KeyError: 'probe'\n"
