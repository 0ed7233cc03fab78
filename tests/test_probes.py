"""What the diagnosis keeps of a student's calls is bounded in bytes, not only in calls.

A worker may pad every reply up to the frame limit while answering right (a draw log of 30 MiB
strings), so the checks keep calling: kept whole for the diagnosis, 1,200 such replies would
take gigabytes of the grading process, and its classmates' grades with it when memory is short.
"""

from __future__ import annotations

from pathlib import Path

from autograder import probes
from autograder.client import StudentModule
from autograder.replies import CallResult
from autograder.probes import RecordingModule


def recording(monkeypatch, sizes: list[int]) -> RecordingModule:
    answers = iter(CallResult(value=float(i), size=size) for i, size in enumerate(sizes))
    monkeypatch.setattr(StudentModule, "call", lambda self, function, *args, **kwargs: next(answers))
    module = RecordingModule(Path("scalar_chain.py"), "scalar_chain", "process")
    module.check = "test_something"
    return module


def test_a_reply_larger_than_any_honest_one_is_never_kept(monkeypatch):
    module = recording(monkeypatch, [100, probes.PROBE_BYTES + 1, 200])
    values = [module.call("f", 1).value for _ in range(3)]
    assert values == [0.0, 1.0, 2.0]  # every answer still reaches the check
    assert [p.outcome.value for p in module.probes] == [0.0, 2.0]


def test_what_is_kept_in_all_stops_at_its_budget(monkeypatch):
    each = probes.PROBE_BYTES
    count = probes.KEPT_BYTES // each
    module = recording(monkeypatch, [each] * (count + 5))
    for call in range(count + 5):
        module.check = f"test_{call // 10}"  # ten calls a check: none is past PER_CHECK
        module.call("f", 1)
    assert len(module.probes) == count
    assert sum(p.size for p in module.probes) <= probes.KEPT_BYTES


def test_the_latest_call_past_the_first_ones_replaces_its_bytes_too(monkeypatch):
    """Past PER_CHECK calls only a check's latest is kept: the one it replaces gives its bytes back,
    so a long honest check keeps its latest call however many it makes."""
    calls = probes.PER_CHECK + 3000
    module = recording(monkeypatch, [40_000] * calls)
    for _ in range(calls):
        module.call("f", 1)
    assert len(module.probes) == probes.PER_CHECK + 1
    assert module.probes[-1].outcome.value == float(calls - 1)
