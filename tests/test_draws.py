"""The draw log: what the recording generator writes down, and what the grader accepts back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder import codec, draws


def test_the_recorder_logs_outer_calls_and_draws_the_real_values():
    generator, log = draws.recording_generator(7)
    values = generator.normal(0.0, 0.5, size=(2, 3))
    generator.standard_normal(4, dtype=np.float32)
    assert np.array_equal(values, np.random.Generator(np.random.PCG64(7)).normal(0.0, 0.5, size=(2, 3)))
    assert [entry["method"] for entry in log] == ["normal", "standard_normal"]
    assert log[0]["shape"] == [2, 3] and log[1]["dtype"] == "<f4"
    assert codec.decode(log[0]["args"]) == [0.0, 0.5]


def test_spawned_generators_are_logged_as_a_spawn_only():
    generator, log = draws.recording_generator(7)
    child, = generator.spawn(1)
    child.normal(size=3)
    assert [entry["method"] for entry in log] == ["spawn"]


def test_the_log_stops_at_its_bound_with_an_overflow_mark():
    generator, log = draws.recording_generator(7)
    for _ in range(draws.MAX_LOGGED_DRAWS + 5):
        generator.random()
    assert len(log) == draws.MAX_LOGGED_DRAWS + 1 and log[-1]["method"] == "__overflow__"


def test_decoded_logs_round_trip_and_are_bounded():
    generator, log = draws.recording_generator(3)
    generator.normal(1.0, 2.0, size=5)
    decoded, = draws.decode_logs([log])
    assert decoded[0]["method"] == "normal" and decoded[0]["args"] == [1.0, 2.0] and decoded[0]["shape"] == [5]
    assert len(draws.decode_logs([[]] * 20)) == 8


@pytest.mark.parametrize("raw", [{"not": "a list"}, [{"bad": 1}], [[{"method": 3}]], [[{"method": "normal", "args": {"__evil__": 1}}]]])
def test_malformed_logs_are_refused(raw):
    with pytest.raises(codec.CodecError):
        draws.decode_logs(raw)


def _matrix_norms_grader():
    import importlib.util
    from conftest import GRADERS
    spec = importlib.util.spec_from_file_location("_matrix_norms_grader", GRADERS / "test_matrix_norms.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _normal_entry(**kwargs):
    """One logged rng.normal call as the grader reads it (decoded)."""
    entry = {"method": "normal", "args": [], "kwargs": kwargs, "shape": list(kwargs.get("size", ()))}
    (log,) = draws.decode_logs([[{**entry, "args": codec.encode([]), "kwargs": codec.encode(kwargs)}]])
    return log[0]


@pytest.mark.parametrize("kwargs", [
    {"loc": np.zeros(5), "scale": 0.5, "size": (4, 4)},          # loc does not fit size (a forged log)
    {"loc": 0.0, "scale": np.full(3, 0.5), "size": (4, 4)},
    {"loc": np.zeros((4, 1)), "scale": 0.5, "size": (4,)},       # fits size only by growing it
])
def test_a_normal_draw_whose_arguments_do_not_fit_its_size_is_an_unreadable_log(kwargs):
    from autograder.problems import CheckFailed
    grader = _matrix_norms_grader()
    with pytest.raises(CheckFailed, match="could not read a draw"):
        grader.read_draws([_normal_entry(**kwargs)], "f()")


def test_arguments_that_numpy_broadcasts_to_the_size_are_read():
    grader = _matrix_norms_grader()
    (draw,) = grader.read_draws([_normal_entry(loc=np.zeros(4), scale=np.full((4, 1), 0.5), size=(4, 4))], "f()")
    assert draw["shape"] == (4, 4) and draw["count"] == 16


def test_a_draw_the_replay_cannot_make_is_the_students_unreadable_log_not_a_grader_failure():
    from autograder.problems import CheckFailed
    grader = _matrix_norms_grader()
    generator = np.random.Generator(np.random.PCG64(1))
    draw = {"method": "normal", "loc": np.zeros(5), "scale": 0.5, "shape": (4, 4), "dtype": np.float64}
    with pytest.raises(CheckFailed, match="cannot draw it again"):
        grader._replay(generator, draw, np.float64, "f()")


# Whatever a worker puts in its draw log, the grader either refuses it on arrival (CodecError, a
# malformed reply: the student's) or fails the check that reads it: no other exception, which
# would be the grader's own failure and withhold the student's score (a red team's shape of
# 2**1000 by 2**1000 did that through a count too large for a float). Each side is tried on its
# own, so that either one's guard, taken out, fails the property.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**1100, max_value=2**1100)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12)
_BIG = st.integers(min_value=0, max_value=2**1100)
_SIZES = st.lists(st.integers(min_value=-2, max_value=64) | _BIG | _JSON, max_size=70) | _JSON
_ARGUMENT_NAMES = st.sampled_from(["loc", "scale", "size", "dtype", "out", "x"])
_ENTRIES = st.fixed_dictionaries({
    "method": st.sampled_from(["normal", "standard_normal", "uniform", "spawn", "__overflow__"]) | st.text(max_size=45),
    "shape": _SIZES | st.none(),
    "args": st.lists(_SIZES | _JSON, max_size=4).map(codec.encode),
    "kwargs": st.dictionaries(_ARGUMENT_NAMES, _SIZES | _JSON | st.sampled_from(["float32", "<f8", "f"]),
                              max_size=3).map(codec.encode),
    "dtype": _JSON})


@settings(max_examples=300, deadline=None)
@given(entry=_ENTRIES)
def test_a_forged_draw_log_is_refused_on_arrival_or_bounded(entry):
    try:
        (log,) = draws.decode_logs([[entry]])
    except codec.CodecError:
        return
    shape = log[0]["shape"]
    assert all(type(part) is int and 0 <= part for part in shape) and math.prod(shape) < 2**63


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=_ENTRIES)
def test_a_forged_draw_log_fails_the_check_that_reads_it_never_the_grader(entry):
    from autograder.problems import CheckFailed
    grader = _matrix_norms_grader_once()
    try:  # its arguments decoded as on arrival; its shape as the worker wrote it
        (log,) = draws.decode_logs([[{**entry, "shape": None}]])
    except codec.CodecError:
        return
    log[0]["shape"] = entry["shape"]
    try:
        read = grader.read_draws(log, "f()")
        drawn = grader.values_drawn(read)
        grader.plural(drawn, "value")
        if drawn <= 1000 and read[0]["method"] in grader.NORMAL_METHODS:
            grader._replay(np.random.Generator(np.random.PCG64(1)), read[0], np.float64, "f()")
    except CheckFailed:
        pass


def test_a_shape_too_large_for_any_array_is_refused_on_arrival():
    entry = {"method": "uniform", "args": [], "kwargs": codec.encode({}), "shape": [2**1000, 2**1000], "dtype": "<f8"}
    with pytest.raises(codec.CodecError, match="more values than any array"):
        draws.decode_logs([[entry]])


def test_a_shape_too_large_for_any_array_fails_the_check_that_reads_it():
    from autograder.problems import CheckFailed
    with pytest.raises(CheckFailed, match="more values than any array"):
        _matrix_norms_grader_once().read_draws([{"method": "uniform", "shape": [2**62, 4]}], "f()")


_GRADER = []


def _matrix_norms_grader_once():
    """The grader module, loaded once for the many examples of a property."""
    if not _GRADER:
        _GRADER.append(_matrix_norms_grader())
    return _GRADER[0]


# Draws nothing, writes a perfect log by hand and returns how norms grow on average: every check
# that reads the log would believe it, had the grader not seen for itself that the norms ignore rng.
HAND_WRITTEN_LOG = '''
import math


def matrix_gradient_norms(depth, dim, weight_std, rng):
    log = getattr(rng, "_kit_log", None)
    if log is not None and depth > 0:
        log.append({"method": "normal", "args": [0.0, float(weight_std), [depth, dim, dim]],
                    "kwargs": {"__dict__": []}, "shape": [depth, dim, dim], "dtype": "<f8"})
    return [math.sqrt(dim) * (weight_std * math.sqrt(dim)) ** layer for layer in range(depth + 1)]
'''
LOG_READERS = ("test_uses_the_passed_in_rng", "test_draws_from_a_normal_distribution_with_mean_zero",
               "test_weights_use_the_std_not_the_variance", "test_draws_a_fresh_matrix_for_every_layer",
               "test_keeps_every_promise_on_every_input")


def test_a_log_written_by_hand_earns_no_point_of_the_checks_that_read_it(tmp_path):
    from autograder.runner import grade_batch
    from conftest import settings as kit_settings
    (tmp_path / "matrix_norms.py").write_text(HAND_WRITTEN_LOG)
    (graded,) = grade_batch([("forger", tmp_path)], kit_settings(only_submitted=True), jobs=1)
    tests = {t.name: t for e in graded.exercises for t in e.tests}
    assert {name: tests[name].status for name in LOG_READERS} == dict.fromkeys(LOG_READERS, "failed")
    # A log of draws never made leaves rng where it was: the fresh-matrix check sees that first.
    caught_by = {name: "returned the same norms" for name in LOG_READERS}
    caught_by["test_draws_a_fresh_matrix_for_every_layer"] = "left rng somewhere else than those draws take it"
    assert all(caught_by[name] in tests[name].message for name in LOG_READERS), \
        {name: tests[name].message for name in LOG_READERS}


@pytest.mark.parametrize("args, kwargs", [((np.zeros((3, 4)), 0.5), {}), ((0.0,), {"scale": np.full((3, 4), 0.5)}),
                                          ((np.zeros((1, 4)), np.full((3, 1), 0.5)), {}),
                                          ((np.zeros(4), 0.5, (3, 4)), {})])
def test_a_mean_or_spread_of_one_repeated_value_is_logged_as_that_value_with_its_size(args, kwargs):
    generator, log = draws.recording_generator(5)
    values = generator.normal(*args, **kwargs)
    assert np.array_equal(values, np.random.Generator(np.random.PCG64(5)).normal(0.0, 0.5, size=(3, 4)))
    assert codec.decode(log[0]["args"]) == [] and log[0]["shape"] == [3, 4]
    assert codec.decode(log[0]["kwargs"]) == {"loc": 0.0, "scale": 0.5, "size": (3, 4)}


def test_a_mean_of_different_values_is_logged_as_it_is():
    generator, log = draws.recording_generator(5)
    loc = np.array([0.0, 1.0])
    generator.normal(loc, 0.5)
    (logged,) = codec.decode(log[0]["args"])[:1]
    assert np.array_equal(logged, loc) and codec.decode(log[0]["kwargs"]) == {}


def pcg64_state(generator) -> tuple:
    state = generator.bit_generator.state
    return state["state"]["state"], state["state"]["inc"], state["has_uint32"], state["uinteger"]


def test_the_state_a_generator_is_left_in_crosses_as_the_grader_reads_it():
    generator, _log = draws.recording_generator(7)
    generator.normal(size=5)
    generator.integers(0, 2**32 - 1, dtype=np.uint32)  # leaves half a 64-bit output waiting
    (crossed,) = draws.decode_states(codec.decode(codec.encode([draws.state_of(generator)])))
    assert crossed == pcg64_state(generator) and crossed[2] == 1


def test_a_state_put_back_or_moved_past_the_log_reads_otherwise_than_the_draws_alone():
    """What the check for a stream put back compares: the draws replayed, against where rng was left."""
    honest, log = draws.recording_generator(11)
    honest.normal(size=(3, 3))
    replayed = np.random.Generator(np.random.PCG64(11))
    replayed.normal(size=(3, 3))
    assert draws.decode_states([draws.state_of(honest)])[0] == pcg64_state(replayed)
    rewound, _ = draws.recording_generator(11)
    saved = rewound.bit_generator.state
    rewound.normal(size=(3, 3))
    rewound.bit_generator.state = saved
    advanced, _ = draws.recording_generator(11)
    advanced.normal(size=(3, 3))
    advanced.bit_generator.advance(1)
    for moved in (rewound, advanced):
        assert draws.decode_states([draws.state_of(moved)])[0] != pcg64_state(replayed)


def test_another_bit_generator_has_no_state_to_compare():
    assert draws.state_of(np.random.Generator(np.random.MT19937(1))) is None


@pytest.mark.parametrize("raw", [None, "x", [["1", "2", 0]], [["1", "2", 0, "0"]], [["zz", "2", 0, 0]],
                                 [["1" * 33, "2", 0, 0]], [[1, 2, 0, 0]], [["", "2", 0, 0]], [None] * 9,
                                 [["1", "2", True, 0]]], ids=repr)
def test_a_state_no_generator_could_be_left_in_is_unreadable(raw):
    with pytest.raises(codec.CodecError):
        draws.decode_states(raw)
