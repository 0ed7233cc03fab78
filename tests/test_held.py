"""A class is graded in flat memory: each result is let go once handed over.

The run stores each result as it arrives (incremental.py) and writes the outputs one student at a
time; if the code that hands results over also kept them, the run's memory would grow with the
class (about 70 KiB a student: 146 MiB at 1,000 students in benchmarks/bench_batch.py). Here a
result the receiver has dropped must be gone by the time the next one arrives.
"""

from __future__ import annotations

import gc
import shutil
import weakref

import pytest

from autograder import runner
from conftest import SOLUTIONS, settings


@pytest.fixture
def students(tmp_path):
    """Four submissions of one exercise (the reference's) and one folder that is not one."""
    chosen = []
    for name in ("ada", "ben", "cy", "dee"):
        shutil.copytree(SOLUTIONS, tmp_path / name)
        chosen.append((name, tmp_path / name))
    chosen.append(("gone", tmp_path / "not-there"))
    return chosen


SHARD_OF = {"ada": 0, "ben": 0, "cy": 1, "dee": 1, "gone": 2}  # shards of two, in the order given


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_result_the_receiver_dropped_is_held_by_nobody_once_the_next_shards_arrive(students, jobs):
    before: list[weakref.ref] = []
    still_held: list[str] = []
    arrived: list[str] = []

    def on_done(result):
        gc.collect()
        still_held.extend(ref().id for ref in before
                          if ref() is not None and SHARD_OF[ref().id] != SHARD_OF[result.id])
        before.append(weakref.ref(result))
        arrived.append(result.id)

    runner.deliver_batch(students, settings(exercises=("residual",), shard_size=2), jobs, on_done)
    assert sorted(arrived) == ["ada", "ben", "cy", "dee", "gone"]
    assert still_held == [], f"results still held after they were handed over: {sorted(set(still_held))}"


def test_grade_batch_still_returns_every_result_in_the_order_given(students):
    results = runner.grade_batch(students, settings(exercises=("residual",), shard_size=2), 2)
    assert [r.id for r in results] == ["ada", "ben", "cy", "dee", "gone"]
    assert [r.status for r in results] == ["graded"] * 4 + ["error"]
    assert all(r.score == r.max_score > 0 for r in results[:4])
