"""The lock that lets a retried call run alone among the pool processes of one run."""

from __future__ import annotations

import fcntl

from autograder.quiet import QuietLock


def test_a_retry_excludes_other_calls_and_waits_for_those_in_flight(tmp_path):
    path = tmp_path / "quiet"
    path.write_text("")
    ours, theirs = QuietLock(str(path)), QuietLock(str(path))
    try:
        with ours.hold(alone=False, wait_seconds=0):
            assert theirs._take(fcntl.LOCK_SH, 0)  # ordinary calls run side by side
            fcntl.flock(theirs.fd, fcntl.LOCK_UN)
            assert not theirs._take(fcntl.LOCK_EX, 0)  # a retry waits for the call in flight
        with ours.hold(alone=True, wait_seconds=0):
            assert not theirs._take(fcntl.LOCK_SH, 0)  # and no call starts beside it
        assert theirs._take(fcntl.LOCK_SH, 0)
    finally:
        ours.close()
        theirs.close()


def test_a_retry_that_cannot_have_the_lock_in_time_runs_anyway(tmp_path):
    path = tmp_path / "quiet"
    path.write_text("")
    ours, theirs = QuietLock(str(path)), QuietLock(str(path))
    ran = []
    try:
        with theirs.hold(alone=False, wait_seconds=0):
            with ours.hold(alone=True, wait_seconds=0.1):
                ran.append(True)
    finally:
        ours.close()
        theirs.close()
    assert ran == [True]


def test_without_a_lock_file_nothing_is_locked():
    lock = QuietLock()
    with lock.hold(alone=True, wait_seconds=0):
        assert lock.fd == -1
