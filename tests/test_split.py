"""`check` grades a submission's exercises in groups on several cores (split.py): the result is the
one a single session gives, the groups share one submission budget, and a lost group is graded
again in the checking process."""

from __future__ import annotations

import multiprocessing
import os
import shutil
from pathlib import Path

import pytest

from autograder import split
from autograder.budget import SharedBudget
from autograder.model import to_dict
from autograder.runner import grade_one
from conftest import COURSE, ROOT, SOLUTIONS, settings
from test_zygote import reproducible

NAMES = [e.name for e in COURSE]


def test_groups_deal_the_exercises_in_turn_and_keep_the_course_order_within_each():
    assert split.groups(COURSE, (), 2) == [tuple(NAMES[0::2]), tuple(NAMES[1::2])]
    assert split.groups(COURSE, (), 1) == [tuple(NAMES)]
    assert split.groups(COURSE, (), 50) == [(name,) for name in NAMES]
    assert split.groups(COURSE, (NAMES[4], NAMES[1]), 2) == [(NAMES[1],), (NAMES[4],)]


def _with_attack(tmp_path: Path, attack: str) -> Path:
    folder = tmp_path / attack
    shutil.copytree(SOLUTIONS, folder)
    for source in (ROOT / "tests" / "attacks" / attack).glob("*.py"):
        shutil.copy(source, folder / source.name)
    return folder


@pytest.mark.parametrize("student", ["eli_novak", "hana_sato", "exit_at_import", "zygote_tamper"])
def test_a_split_check_gives_what_one_session_gives(student, tmp_path):
    folder = ROOT / "examples" / "class" / student
    if not folder.is_dir():
        folder = _with_attack(tmp_path, student)
    chosen = settings(seed=3)
    alone = grade_one(student, folder, chosen)
    both = split.grade_split(student, folder, chosen, jobs=2)
    assert reproducible(to_dict(both)) == reproducible(to_dict(alone))
    assert [e.name for e in both.exercises] == NAMES


def test_the_groups_charge_one_budget_together():
    context = multiprocessing.get_context("fork")
    budget = SharedBudget(100.0, "your whole submission", context)

    def charge() -> None:
        for _ in range(2000):
            budget.charge(0.001)
    children = [context.Process(target=charge) for _ in range(3)]
    for child in children:
        child.start()
    charge()
    for child in children:
        child.join()
    assert budget.spent == pytest.approx(8.0)  # no charge lost to a race
    assert budget.remaining() == pytest.approx(92.0)


def test_a_session_charges_the_budget_it_shares_with_the_other_groups():
    spent = SharedBudget(0.0, "your whole submission", multiprocessing.get_context("fork"))
    result = grade_one("late", SOLUTIONS, settings(exercises=(NAMES[0],)), (split._Shared(spent),))
    statuses = {t.status for e in result.exercises for t in e.tests}
    assert statuses == {"timeout"}  # nothing left of the shared budget: no check ran the code
    assert "whole submission" in result.exercises[0].tests[0].message


def test_a_group_whose_process_is_lost_is_graded_again_in_the_checking_process(monkeypatch):
    chosen = settings(seed=3)
    alone = grade_one("eli", ROOT / "examples" / "class" / "eli_novak", chosen)
    parent, original = os.getpid(), split.grade_one

    def lost_in_a_child(*args):
        if os.getpid() != parent:
            os._exit(9)
        return original(*args)
    monkeypatch.setattr(split, "grade_one", lost_in_a_child)
    both = split.grade_split("eli", ROOT / "examples" / "class" / "eli_novak", chosen, jobs=2)
    assert reproducible(to_dict(both)) == reproducible(to_dict(alone))


def test_every_group_is_graded_against_the_shared_budget(monkeypatch):
    monkeypatch.setattr(split, "SharedBudget", lambda _seconds, scope, context: SharedBudget(0.0, scope, context))
    result = split.grade_split("late", SOLUTIONS, settings(exercises=(NAMES[0], NAMES[1])), jobs=2)
    assert {e.name: {t.status for t in e.tests} for e in result.exercises} == {NAMES[0]: {"timeout"},
                                                                              NAMES[1]: {"timeout"}}
