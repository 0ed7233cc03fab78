"""The arguments after a call, as the grader reads them: an array that is no longer the one sent,
though its values are, is a change.

The grader reads placed arrays back itself (autograder.arena); what a slot of the caller's list
holds, and whether an array was made read-only, is the worker's report. A slot the student filled
anew (``grads[:] = copies``) or reordered (``grads.reverse()``), or an array made read-only, holds
equal values, so only the report shows it. The same edits made by a catalogue mistake in the
grader's own process must read alike (diagnose.py), or the mistake could never be named.
"""

from __future__ import annotations

import numpy as np
import pytest

from autograder import arena
from autograder.arena import READ_ONLY, Altered
from autograder.checks import unchanged


def placed(args):
    """The call's arrays placed as the client places them, read back unchanged."""
    _encoded_args, _encoded_kwargs, slots, where = arena.layout(args, {}, 1 << 20)
    observed = arena.as_arrays(slots, tuple(slot.sent for slot in slots))
    return slots, where, observed


def after(args, reported_list):
    slots, where, observed = placed(args)
    return arena.arguments_after(args, [reported_list(observed)], where, slots, observed)[0]


def grads():
    return [np.array([3.0, 4.0]), np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([3.0, 4.0])]


def test_a_list_whose_slots_still_name_their_arrays_is_unchanged():
    sent = grads()
    now = after([sent], lambda observed: [observed[0], observed[1], observed[2]])
    assert all(unchanged(n, was) for n, was in zip(now, sent))


def test_a_slot_refilled_with_an_equal_copy_is_a_change():
    sent = grads()
    now = after([sent], lambda observed: [observed[0], observed[1].copy(), observed[2]])
    assert now[1] == Altered("another array holding the same values")
    assert not unchanged(now[1], sent[1]) and unchanged(now[0], sent[0])


def test_a_reordered_list_names_the_array_each_slot_now_holds():
    sent = grads()  # items 0 and 2 hold equal values: only the names tell them apart
    now = after([sent], lambda observed: [observed[2], observed[1], observed[0]])
    assert now == [Altered("the array passed in as item 2"), now[1], Altered("the array passed in as item 0")]
    assert unchanged(now[1], sent[1])


def test_a_slot_refilled_with_other_values_shows_those_values():
    sent = grads()
    now = after([sent], lambda observed: [observed[0] * 2, observed[1], observed[2]])
    assert isinstance(now[0], np.ndarray) and now[0].tolist() == [6.0, 8.0]


def test_an_argument_itself_reported_by_value_is_not_a_swap():
    """Only a container's slots can be refilled: the worker reports an argument by value when its
    layout changed, and equal bytes there are no change at all."""
    x = np.array([1.0, 2.0])
    slots, where, observed = placed([x])
    now = arena.arguments_after([x], [observed[0].copy()], where, slots, observed)
    assert unchanged(now[0], x)


def test_an_edit_in_place_is_seen_before_any_swap():
    sent = grads()
    slots, where, observed = placed([sent])
    edited = tuple(slot.sent if k != 0 else np.array([0.0, 4.0]).tobytes() for k, slot in enumerate(slots))
    seen = arena.as_arrays(slots, edited)
    now = arena.arguments_after([sent], [[seen[0].copy(), seen[1], seen[2]]], where, slots, seen)[0]
    assert now[0].tolist() == [0.0, 4.0]


@pytest.mark.parametrize("edit", [
    lambda g: g.__setitem__(slice(None), [np.array(a) for a in g]),
    lambda g: g.reverse(),
    lambda g: g.__setitem__(0, g[0] * 2),
    lambda g: None,
], ids=["refilled", "reversed", "other values", "untouched"])
def test_a_mistake_run_in_the_graders_process_reads_as_a_worker_report_does(edit):
    sent = grads()
    local = [g.copy() for g in sent]
    held = arena.held_before(local)
    sent_bytes = {id(g): g.tobytes() for g in local}
    slots, where, observed = placed([sent])
    names = {id(g): k for k, g in enumerate(local)}
    edit(local)
    reported = [observed[names[id(g)]] if id(g) in names else g for g in local]
    from_worker = arena.arguments_after([sent], [reported], where, slots, observed)[0]
    in_process = arena.mark_swaps(held, local, [np.array(g) for g in local], sent_bytes)
    assert [repr(v) if isinstance(v, Altered) else v.tolist() for v in in_process] == \
        [repr(v) if isinstance(v, Altered) else v.tolist() for v in from_worker]


def read(reply_extra, return_args=True):
    """A reply to clip(grads, 1.0) as read on the grader's side, with ``reply_extra`` added."""
    from autograder.replies import read_result
    sent = grads()
    args, kwargs = (sent, 1.0), {}
    _encoded_args, _encoded_kwargs, slots, where = arena.layout(list(args), kwargs, 1 << 20)
    reply = {"ok": True, "value": None, "args_after": [[{"__shared__": k} for k in range(3)], 1.0],
             "kwargs_after": {"__dict__": []}, **reply_extra}
    return sent, read_result(reply, args, kwargs, return_args, slots, where, tuple(s.sent for s in slots))


def test_the_arrays_a_result_hands_back_are_the_very_arrays_sent():
    sent, result = read({"handed_back": [2, 0, 2]})
    assert len(result.handed_back) == 2 and result.handed_back[0] is sent[0] and result.handed_back[1] is sent[2]
    assert arena.handed_back_paths(result.handed_back, arena.array_paths([sent, 1.0], {})) == ((0, 0), (0, 2))
    assert read({})[1].handed_back == ()


@pytest.mark.parametrize("claim", [7, [True], ["0"], [0.0], list(range(4))], ids=repr)
def test_a_list_of_arrays_handed_back_that_cannot_be_one_is_unreadable(claim):
    with pytest.raises(ValueError):
        read({"handed_back": claim})


def test_a_mistake_run_in_the_graders_process_finds_the_arrays_it_hands_back_where_a_worker_would():
    sent = grads()
    paths = arena.array_paths([sent, 1.0], {})  # as the call found them: a list refilled later does not count
    value = ([sent[1], np.zeros(2), {"k": (sent[0],)}], 1.0)
    sent[:] = [np.array(g) for g in sent]
    assert arena.handed_back_paths(arena.arrays_held(value), paths) == ((0, 0), (0, 1))
    assert arena.handed_back_paths(arena.arrays_held(sent), paths) == ()


def test_an_array_made_read_only_is_a_change_wherever_it_sits():
    x, sent = np.array([1.0, 2.0]), grads()
    _a, _k, slots, where = arena.layout([x, sent], {}, 1 << 20)
    observed = arena.as_arrays(slots, tuple(slot.sent for slot in slots))
    now = arena.arguments_after([x, sent], [observed[0], list(observed[1:])], where, slots, observed,
                                read_only=frozenset({0, 2}))
    assert now[0] == Altered(READ_ONLY) and now[1][1] == Altered(READ_ONLY)
    assert not unchanged(now[0], x) and unchanged(now[1][0], sent[0])


def test_an_array_edited_and_made_read_only_shows_the_edit():
    x = np.array([1.0, 2.0])
    _a, _k, slots, where = arena.layout([x], {}, 1 << 20)
    seen = arena.as_arrays(slots, (np.array([1.0, 5.0]).tobytes(),))
    now = arena.arguments_after([x], [seen[0]], where, slots, seen, read_only=frozenset({0}))
    assert now[0].tolist() == [1.0, 5.0]


def test_a_mistake_that_makes_arrays_read_only_in_the_graders_process_reads_as_a_worker_report_does():
    x, sent = np.array([1.0, 2.0]), grads()
    before = {id(a): a.tobytes() for _path, a in arena.array_paths([x, sent], {})}
    x.setflags(write=False)
    sent[1].setflags(write=False)
    marked = arena.mark_read_only([x, sent], [x.copy(), [g.copy() for g in sent]], before)
    assert marked[0] == Altered(READ_ONLY) and marked[1][1] == Altered(READ_ONLY)
    assert isinstance(marked[1][0], np.ndarray)
    edited = np.array([1.0, 2.0])
    before[id(edited)] = edited.tobytes()
    edited[0] = 9.0
    edited.setflags(write=False)
    assert isinstance(arena.mark_read_only(edited, edited.copy(), before), np.ndarray)  # the edit shows instead


@pytest.mark.parametrize("claim", [3, [0.0], [False], list(range(4))], ids=repr)
def test_a_list_of_arrays_made_read_only_that_cannot_be_one_is_unreadable(claim):
    with pytest.raises(ValueError):
        read({"read_only": claim})


def test_the_arrays_a_worker_says_it_made_read_only_are_marked():
    _sent, result = read({"read_only": [1]})
    after = result.args_after[0]
    assert after[1] == Altered(READ_ONLY) and isinstance(after[0], np.ndarray)
