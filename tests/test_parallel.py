"""The suite's own scheduling on two workers (tests/parallel.py): a test marked ``alone`` runs alone."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from parallel import _turn

ENTER = """
import sys, time
sys.path.insert(0, {tests!r})
from parallel import _turn
with _turn({folder!r}, alone={alone}):
    print(time.time(), flush=True)
"""


def _enter_in_a_child(folder: Path, alone: bool) -> subprocess.Popen:
    code = ENTER.format(tests=str(Path(__file__).parent), folder=str(folder), alone=alone)
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def test_a_test_alone_waits_until_the_running_one_ends_and_others_run_together(tmp_path):
    with _turn(str(tmp_path), alone=False):
        beside = _enter_in_a_child(tmp_path, alone=False)
        entered_beside = float(beside.communicate(timeout=60)[0])  # another shared turn is not kept waiting
        lonely = _enter_in_a_child(tmp_path, alone=True)
        time.sleep(1.0)
        released = time.time()
    entered_alone = float(lonely.communicate(timeout=60)[0])
    assert entered_beside < released <= entered_alone


def test_a_test_waiting_to_run_alone_keeps_later_ones_out(tmp_path):
    with _turn(str(tmp_path), alone=False):
        lonely = _enter_in_a_child(tmp_path, alone=True)
        time.sleep(1.0)  # it waits at the turnstile's far side, holding the turnstile
        later = _enter_in_a_child(tmp_path, alone=False)
        time.sleep(1.0)
    assert float(lonely.communicate(timeout=60)[0]) <= float(later.communicate(timeout=60)[0])
