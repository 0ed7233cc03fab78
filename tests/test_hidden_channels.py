"""Red team: what a hidden check says may not be chosen by the student's code.

A hidden check that failed named the exception's type, the exit code or signal, and a protocol
error's message as the worker sent them: a type made on the spot, ``type(f"Leak_{fan_in}", ...)``,
spelt out a hidden input in the report, and an exit code carried a byte of one per check.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autograder import cli
from autograder.outcome import verdict as _verdict
from autograder.problems import StudentRaised
from autograder.wording import call_problem, crash
from conftest import SOLUTIONS

LEAKS = {
    "named_type": ('def init_std(kind, fan_in, fan_out):\n'
                   '    raise type("Leak_%s_%d_%d" % (kind, fan_in, fan_out), (ValueError,), {})("x")\n'),
    "exit_code": ('import os\n'
                  'def init_std(kind, fan_in, fan_out):\n'
                  '    os._exit(100 + fan_in % 7)\n'),
    # The worker's own encoder patched to send a tag the grader's decoder does not know, spelling
    # out the input: the decoder's error named the tag, and a hidden check showed it.
    "unknown_tag": ('import sys\n'
                    'codec = sys.modules["codec"]\n'
                    'encode = codec.encode\n'
                    'class Leak:\n'
                    '    def __init__(self, text):\n'
                    '        self.text = text\n'
                    'def patched(value, *args, **kwargs):\n'
                    '    return {value.text: 0} if isinstance(value, Leak) else encode(value, *args, **kwargs)\n'
                    'codec.encode = patched\n'
                    'def init_std(kind, fan_in, fan_out):\n'
                    '    return Leak("Leak_%s_%d_%d" % (kind, fan_in, fan_out))\n'),
}


def _hidden_messages(tmp_path: Path, source: str) -> list[str]:
    folder = tmp_path / "mallory"
    shutil.copytree(SOLUTIONS, folder)
    (folder / "init_std.py").write_text(source)
    report = tmp_path / "report.json"
    cli.main(["check", str(folder), "--exercise", "init_std", "--seed", "3", "--json", str(report)])
    exercise = json.loads(report.read_text())["students"][0]["exercises"][0]
    return [t["message"] for t in exercise["tests"] if t["visibility"] == "hidden"]


@pytest.mark.parametrize("leak", sorted(LEAKS))
def test_a_hidden_check_says_nothing_the_student_chose(tmp_path, leak):
    messages = _hidden_messages(tmp_path, LEAKS[leak])
    assert messages and all(m for m in messages)
    assert not any("Leak_" in m or "exit code" in m for m in messages), messages


def _raised(exc):
    try:
        raise exc
    except Exception:  # noqa: BLE001
        return pytest.ExceptionInfo.from_current()


def test_hidden_verdicts_name_builtin_types_and_no_worker_text():
    made_up = StudentRaised("f() raised Leak_42", exc_type="Leak_42", exc_mro=("student.Leak_42", "builtins.ValueError"))
    assert "Leak_42" not in _verdict(_raised(made_up), hidden=True)["message"]
    lying = StudentRaised("f() raised ValueError", exc_type="ValueError", exc_mro=("student.ValueError",))
    assert "ValueError" not in _verdict(_raised(lying), hidden=True)["message"]
    plain = StudentRaised("f() raised ValueError", exc_type="ValueError", exc_mro=("builtins.ValueError",))
    assert "ValueError" in _verdict(_raised(plain), hidden=True)["message"]
    protocol = call_problem("a.py", "f", {"kind": "protocol", "message": "args were 1234567"})
    assert "1234567" not in _verdict(_raised(protocol), hidden=True)["message"]
    assert "1234567" in _verdict(_raised(protocol), hidden=False)["message"]
    for code in (77, -11):
        crashed = crash("f()", code, None)
        assert str(abs(code)) not in _verdict(_raised(crashed), hidden=True)["message"]
        assert str(abs(code)) in _verdict(_raised(crashed), hidden=False)["message"]


def test_a_hidden_check_shows_no_detail_the_worker_sent():
    """A traceback or the worker's own words are written by the student's code: kept for a public check only."""
    exited = call_problem("a.py", "f", {"kind": "exit", "traceback": "fan_in=1234567"})
    assert _verdict(_raised(exited), hidden=True)["detail"] == ""
    assert "1234567" in _verdict(_raised(exited), hidden=False)["detail"]
    missing = call_problem("a.py", "f", {"kind": "missing"})
    missing.detail = "fan_in=1234567"
    assert _verdict(_raised(missing), hidden=True)["detail"] == ""


def test_a_grader_failure_on_a_hidden_check_names_only_its_type():
    """The grader's own exception may quote what the student's values made it meet (a count, a shape)."""
    failed = _verdict(_raised(OverflowError("int too large: 1234567")), hidden=True)
    assert failed["internal"] and "OverflowError" in failed["message"] and "1234567" not in failed["message"]
    assert "1234567" in _verdict(_raised(OverflowError("int too large: 1234567")), hidden=False)["message"]


@pytest.mark.parametrize("name", ["BlockingIOError", "UnicodeTranslateError", "ResourceWarning", "EnvironmentError"])
def test_a_hidden_check_names_no_builtin_type_that_no_plain_mistake_raises(name):
    """Each type the student's code may choose among is more it could spell out: only the usual ones are named."""
    chosen = StudentRaised(f"f() raised {name}", exc_type=name, exc_mro=(f"builtins.{name}",))
    assert name not in _verdict(_raised(chosen), hidden=True)["message"]
    usual = StudentRaised("f() raised ZeroDivisionError", exc_type="ZeroDivisionError",
                          exc_mro=("builtins.ZeroDivisionError",))
    assert "ZeroDivisionError" in _verdict(_raised(usual), hidden=True)["message"]



def test_every_graders_hidden_checks_run_after_its_public_ones_whatever_its_order():
    from types import SimpleNamespace

    from autograder.plugin import pytest_collection_modifyitems

    def item(module, name, hidden=False):
        return SimpleNamespace(module=module, name=name,
                               get_closest_marker=lambda marker: object() if hidden and marker == "hidden" else None)
    items = [item("a", "a1"), item("a", "a_hidden", hidden=True), item("a", "a2"),
             item("b", "b_hidden", hidden=True), item("b", "b1")]
    pytest_collection_modifyitems(items)
    assert [i.name for i in items] == ["a1", "a2", "a_hidden", "b1", "b_hidden"]


def test_a_recursion_past_pythons_limit_is_told_to_loop_and_other_exceptions_get_no_such_hint():
    deep = call_problem("a.py", "f", {"kind": "exception", "type": "RecursionError",
                                      "message": "maximum recursion depth exceeded"})
    assert "loop" in deep.hint and "1,000" in deep.hint
    other = call_problem("a.py", "f", {"kind": "exception", "type": "ValueError", "message": "no"})
    assert other.hint == ""
