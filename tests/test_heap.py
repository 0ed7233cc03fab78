"""A pool process gives the memory each student's grading freed back to the system (heap.py)."""

from __future__ import annotations

from autograder import heap, pool
from conftest import SOLUTIONS, settings


def test_a_pool_process_gives_freed_memory_back_after_each_student_it_posts(tmp_path, monkeypatch):
    spool = tmp_path / "spool"
    spool.mkdir()
    posted_then: list[int] = []
    monkeypatch.setattr(heap, "give_back", lambda: posted_then.append(len(list(spool.glob("*.json")))))
    results = pool._grade_shard_into([("ada", SOLUTIONS), ("bo", SOLUTIONS)], settings(), str(spool))
    assert [r.id for r in results] == ["ada", "bo"]
    assert posted_then == [1, 2], "not given back once per student, after the student's result was posted"

