"""Process mode as root: each worker's uid belongs to nobody else, and no two workers share one."""

from __future__ import annotations

import os

import pytest

from autograder import uids

pytestmark = [pytest.mark.host, pytest.mark.skipif(os.name != "posix", reason="uids are a POSIX matter")]


@pytest.fixture(autouse=True)
def private_locks(tmp_path, monkeypatch):
    monkeypatch.setattr(uids, "LOCKS", tmp_path / "locks")


def test_a_uid_in_a_subordinate_range_or_of_a_user_is_never_drawn(monkeypatch):
    half = (uids.LAST - uids.FIRST) // 2
    monkeypatch.setattr(uids, "_subordinate_ranges", lambda: [range(uids.FIRST, uids.FIRST + half)])
    drawn = iter([0, half + 7, half + 9])  # a subuid, then a user's, then a free one
    monkeypatch.setattr(uids.secrets, "randbelow", lambda n: next(drawn))
    monkeypatch.setattr(uids, "_taken", lambda uid, ranges: any(uid in r for r in ranges) or uid == uids.FIRST + half + 7)
    uid, lock = uids.reserve_uid()
    assert uid == uids.FIRST + half + 9
    uids.release_uid(uid, lock)


def test_two_workers_never_share_a_uid(monkeypatch):
    drawn = iter([5, 5, 6])
    monkeypatch.setattr(uids.secrets, "randbelow", lambda n: next(drawn))
    first, first_lock = uids.reserve_uid()
    second, second_lock = uids.reserve_uid()
    assert (first, second) == (uids.FIRST + 5, uids.FIRST + 6)
    uids.release_uid(first, first_lock)
    uids.release_uid(second, second_lock)
    assert list(uids.LOCKS.iterdir()) == []


def test_a_uid_something_still_runs_as_is_not_taken(monkeypatch):
    drawn = iter([3, 4])
    monkeypatch.setattr(uids.secrets, "randbelow", lambda n: next(drawn))
    monkeypatch.setattr(uids, "_running_as", lambda uid: uid == uids.FIRST + 3)
    uid, lock = uids.reserve_uid()
    assert uid == uids.FIRST + 4
    uids.release_uid(uid, lock)


def test_subordinate_ranges_are_read_from_the_files(tmp_path, monkeypatch):
    (tmp_path / "subuid").write_text("kit-ci:165536:65536\nbroken line\n")
    real = uids.Path
    monkeypatch.setattr(uids, "Path", lambda name: real(tmp_path / "subuid") if name in ("/etc/subuid", "/etc/subgid") else real(name))
    assert uids._subordinate_ranges() == [range(165536, 231072)] * 2
