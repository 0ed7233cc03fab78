"""Checks for normalization.py: LayerNorm and RMSNorm over the last axis of any ndarray.

Public checks use hand-picked rows whose mean and variance are round numbers, so every expected
value is a closed form such as (x - 2.5) / sqrt(1.25 + 1e-5). Hidden checks compare with the
reference on random 1-D, 2-D and 3-D inputs, random eps and random gamma/beta.
"""

import numpy as np
import pytest

from autograder.checks import call_text, expect_array, expect_array_close, fail, show

EXERCISE = "normalization"
LN = "layer_norm"
RMS = "rms_norm"
RTOL, ATOL = 1e-6, 1e-9  # correct formulas differ by rounding only


def row(*values) -> np.ndarray:
    return np.array(values, dtype=float)


def run(student, function, x, *args, return_args=False, **kwargs):
    """Call the student's function; returns the CallResult and how the call reads in a message."""
    result = student.call(function, x, *args, return_args=return_args, **kwargs)
    return result, f"{call_text(function, x, *args, **kwargs)} with x = {show(x)}"


def expect_values(got, expected, call, hint):
    """The returned array has the expected shape, holds no nan/inf, and matches to rounding."""
    array = expect_array(got, np.shape(expected), call)
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(f"{call} returned {show(array)}, with {array[index]} at index {index}; expected {show(expected)}.", hint)
    return expect_array_close(array, expected, call, RTOL, ATOL, hint)


def check(student, function, x, expected, hint, *args, **kwargs):
    result, call = run(student, function, x, *args, **kwargs)
    return expect_values(result.value, expected, call, hint)


# --- LayerNorm -------------------------------------------------------------------------------

AXIS_HINT = ("Take the mean and the variance along the last axis with keepdims=True "
             "(x.mean(axis=-1, keepdims=True)), so they broadcast back over each row; axis=0 normalizes "
             "each feature across the batch (that is BatchNorm) and no axis at all mixes every row together.")


@pytest.mark.points(2)
def test_layer_norm_of_one_two_three_four(student):
    """LayerNorm of the row (1, 2, 3, 4) is (-1.342, -0.447, 0.447, 1.342): mean 2.5, variance 1.25."""
    x = row(1, 2, 3, 4)
    check(student, LN, x, (x - 2.5) / np.sqrt(1.25 + 1e-5),
          "Subtract the row's mean (2.5) and divide by sqrt(variance + eps), where the variance 1.25 is the "
          "mean of the squared deviations and eps = 1e-5.")


@pytest.mark.points(1)
def test_layer_norm_uses_population_variance(student):
    """The variance divides by d, not d - 1: the row (0, 2) has variance 1 and becomes (-1.0, 1.0)."""
    hint = "Divide the sum of squared deviations by d (np.var's default ddof=0), not by d - 1."
    x = row(0, 2)
    check(student, LN, x, (x - 1.0) / np.sqrt(1.0 + 1e-5), hint)
    x = row(2, 4, 6, 8, 10)
    check(student, LN, x, (x - 6.0) / np.sqrt(8.0 + 1e-5), hint)


@pytest.mark.points(1)
def test_layer_norm_eps_goes_inside_the_square_root(student):
    """eps goes under the square root with the variance: with eps=1 the row (1, 3) becomes (-0.707, 0.707)."""
    hint = ("Use the eps you are given, added to the variance before the square root: "
            "(x - mean) / sqrt(var + eps), not (x - mean) / (sqrt(var) + eps).")
    x = row(1, 3)
    check(student, LN, x, (x - 2.0) / np.sqrt(1.0 + 1.0), hint, eps=1.0)
    check(student, LN, x, (x - 2.0) / np.sqrt(1.0 + 3.0), hint, 3.0)


@pytest.mark.points(1)
def test_layer_norm_constant_row_is_all_zeros(student):
    """A constant row such as (5, 5, 5, 5) has variance 0 and normalizes to zeros, not nan."""
    hint = ("A constant row gives 0 / sqrt(0 + eps) = 0; without eps (or with eps = 0) it is 0 / 0 = nan. "
            "Keep eps under the square root, with its default of 1e-5.")
    check(student, LN, row(5, 5, 5, 5), np.zeros(4), hint)
    batch = np.array([[5.0, 5.0, 5.0, 5.0], [1.0, 2.0, 3.0, 4.0]])
    check(student, LN, batch, np.array([np.zeros(4), (batch[1] - 2.5) / np.sqrt(1.25 + 1e-5)]), hint)


@pytest.mark.points(1)
def test_layer_norm_default_eps_is_1e_5(student):
    """Without an eps argument eps is 1e-5: the row (0, 0.002), variance 1e-6, becomes (-0.302, 0.302)."""
    x = row(0, 0.002)
    check(student, LN, x, (x - 0.001) / np.sqrt(1e-6 + 1e-5),
          "The default must be eps=1e-5 (PyTorch's nn.LayerNorm default); with a variance as small as 1e-6 "
          "eps = 1e-6 would give (-0.707, 0.707) and no eps (-1, 1).")


@pytest.mark.points(2)
def test_layer_norm_normalizes_each_row_over_the_last_axis(student):
    """Each row of a 2-D batch is normalized across its own features (the last axis), not down the columns."""
    x = np.array([[1.0, 2.0, 3.0, 4.0],        # mean 2.5, variance 1.25
                  [-3.0, -1.0, 1.0, 3.0],      # mean 0, variance 5
                  [10.0, 10.0, 10.0, 14.0]])   # mean 11, variance 3
    expected = np.array([(x[0] - 2.5) / np.sqrt(1.25 + 1e-5),
                         x[1] / np.sqrt(5.0 + 1e-5),
                         (x[2] - 11.0) / np.sqrt(3.0 + 1e-5)])
    check(student, LN, x, expected, AXIS_HINT)


# A square batch: a statistic taken on the wrong axis still broadcasts, and gives wrong numbers.
SQUARE = np.array([[0.5, -1.0, 2.0, 3.5],
                   [4.0, 4.5, 3.0, -2.0],
                   [1.0, 1.0, 2.0, 7.0],
                   [-6.0, 0.0, 0.5, 2.5]])


def expect_rows_independent(student, function, hint):
    """Property: a row inside a batch is normalized as if alone, and other rows do not matter."""
    batch, call = run(student, function, SQUARE)
    batch = expect_array(batch.value, SQUARE.shape, call)
    for i, single in enumerate(SQUARE):
        alone, alone_call = run(student, function, single)
        alone = expect_array(alone.value, single.shape, alone_call)
        if not np.allclose(batch[i], alone, rtol=RTOL, atol=ATOL):
            fail(f"Row {i} of {call} is {show(batch[i])}, but {alone_call} returned {show(alone)}; "
                 "a row must be normalized the same way inside a batch as alone.", hint)
    changed = SQUARE.copy()
    changed[0] = [100.0, -50.0, 30.0, 0.0]
    after, after_call = run(student, function, changed)
    after = expect_array(after.value, changed.shape, after_call)
    if not np.allclose(after[1:], batch[1:], rtol=RTOL, atol=ATOL):
        fail(f"Changing only row 0 of the batch changed the outputs of other rows: {after_call} returned "
             f"{show(after)} where rows 1-3 were {show(batch[1:])}.", hint)


@pytest.mark.points(1)
def test_layer_norm_rows_are_independent(student):
    """A row's output depends on that row alone: normalized inside a batch it equals the row normalized by itself."""
    expect_rows_independent(student, LN, AXIS_HINT)


@pytest.mark.points(1)
def test_layer_norm_handles_3d_input(student):
    """A 3-D input (batch x sequence x features) is normalized along its last axis, one feature vector at a time."""
    x = np.array([[[1.0, 2.0, 3.0, 4.0],       # mean 2.5, variance 1.25
                   [2.0, 4.0, 6.0, 8.0],       # mean 5, variance 5
                   [0.0, 0.0, 0.0, 4.0]],      # mean 1, variance 3
                  [[-1.0, 1.0, -1.0, 1.0],     # mean 0, variance 1
                   [3.0, 3.0, 3.0, 3.0],       # mean 3, variance 0
                   [10.0, 12.0, 10.0, 12.0]]])  # mean 11, variance 1
    expected = np.array([[(x[0, 0] - 2.5) / np.sqrt(1.25 + 1e-5),
                          (x[0, 1] - 5.0) / np.sqrt(5.0 + 1e-5),
                          (x[0, 2] - 1.0) / np.sqrt(3.0 + 1e-5)],
                         [x[1, 0] / np.sqrt(1.0 + 1e-5),
                          np.zeros(4),
                          (x[1, 2] - 11.0) / np.sqrt(1.0 + 1e-5)]])
    check(student, LN, x, expected,
          "Use axis=-1 (the last axis, whatever the number of dimensions), not axis=1, which is the sequence "
          "axis of a 3-D input.")


# Four rows with round statistics, square so that a per-row (wrong-axis) gamma still broadcasts.
ROWS = np.array([[1.0, 2.0, 3.0, 4.0],       # mean 2.5, variance 1.25
                 [-3.0, -1.0, 1.0, 3.0],     # mean 0, variance 5
                 [10.0, 10.0, 10.0, 14.0],   # mean 11, variance 3
                 [-1.0, 1.0, -1.0, 1.0]])    # mean 0, variance 1
ROWS_NORMALIZED = np.array([(ROWS[0] - 2.5) / np.sqrt(1.25 + 1e-5),
                            ROWS[1] / np.sqrt(5.0 + 1e-5),
                            (ROWS[2] - 11.0) / np.sqrt(3.0 + 1e-5),
                            ROWS[3] / np.sqrt(1.0 + 1e-5)])
GAMMA = row(2.0, 0.5, -1.0, 3.0)
BETA = row(0.0, 1.0, -2.0, 10.0)
GAMMA_HINT = ("gamma has one factor per feature: multiply the normalized array by gamma of shape (d,), "
              "which broadcasts along the last axis (column j is scaled by gamma[j]).")


@pytest.mark.points(1)
def test_layer_norm_gamma_scales_each_feature(student):
    """gamma of shape (d,) multiplies feature j of every normalized row by gamma[j]."""
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA, GAMMA_HINT, gamma=GAMMA)


@pytest.mark.points(1)
def test_layer_norm_beta_shifts_each_feature_after_scaling(student):
    """beta of shape (d,) is added to feature j after the scaling: out = x_hat * gamma + beta."""
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA + BETA,
          "Scale first, shift second: x_hat * gamma + beta, not (x_hat + beta) * gamma; and do not forget beta.",
          gamma=GAMMA, beta=BETA)
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA + BETA,
          "Keep the stub's signature, layer_norm(x, eps=1e-5, gamma=None, beta=None): called by position, "
          "the third argument is gamma and the fourth is beta.", 1e-5, GAMMA, BETA)


@pytest.mark.points(1)
def test_layer_norm_gamma_and_beta_are_optional(student):
    """gamma=None means no scaling and beta=None no shift, and either may be given without the other."""
    x = ROWS[0]
    x_hat = ROWS_NORMALIZED[0]
    hint = ("Treat gamma=None as all ones and beta=None as all zeros, separately: apply gamma when it is given "
            "and beta when it is given.")
    check(student, LN, x, x_hat, hint, gamma=None, beta=None)
    check(student, LN, x, x_hat + BETA, hint, beta=BETA)
    check(student, LN, x, x_hat * GAMMA, hint, gamma=GAMMA, beta=None)


SHAPES = ((5,), (1, 5), (3, 2), (2, 1, 5), (2, 3, 4))


def expect_same_shape_float64(student, function):
    for shape in SHAPES:
        x = np.arange(np.prod(shape), dtype=float).reshape(shape) % 7 - 2.5
        result, call = run(student, function, x)
        array = expect_array(result.value, shape, call)
        if array.dtype != np.float64:
            fail(f"{call} returned an array of {array.dtype}; expected float64, like the input.",
                 "Keep the computation in float64: do not convert with astype(np.float32) or similar.")


@pytest.mark.points(1)
def test_layer_norm_keeps_the_shape_and_float64(student):
    """The output is a float64 array of the input's shape, for 1-D, 2-D and 3-D inputs (one-row batches included)."""
    expect_same_shape_float64(student, LN)


def expect_inputs_unchanged(student, function, x, **kwargs):
    sent = {name: value.copy() for name, value in kwargs.items()}
    result, call = run(student, function, x.copy(), return_args=True, **kwargs)
    hint = ("Do not edit the arrays you are given (x -= mean, x /= rms, gamma *= ...): compute new arrays "
            "(x - mean), or copy first with x = x.copy().")
    if not isinstance(result.args_after[0], np.ndarray) or not np.array_equal(result.args_after[0], x):
        fail(f"{call} changed its input x to {show(result.args_after[0])}; x must be left as it was.", hint)
    for name, value in sent.items():
        if not np.array_equal(result.kwargs_after[name], value):
            fail(f"{call} changed its argument {name} to {show(result.kwargs_after[name])}; "
                 f"it must be left as {show(value)}.", hint)


@pytest.mark.points(1)
def test_layer_norm_leaves_its_input_unchanged(student):
    """layer_norm never modifies the x, gamma or beta it is given."""
    expect_inputs_unchanged(student, LN, ROWS[0])
    expect_inputs_unchanged(student, LN, ROWS[:3])
    expect_inputs_unchanged(student, LN, ROWS.reshape(2, 2, 4), gamma=GAMMA, beta=BETA)


# --- RMSNorm ---------------------------------------------------------------------------------

RMS_AXIS_HINT = ("Take the mean of squares along the last axis with keepdims=True "
                 "(np.mean(x ** 2, axis=-1, keepdims=True)), so it broadcasts back over each row; axis=0 "
                 "divides each feature by a statistic of the whole batch and no axis mixes every row together.")


@pytest.mark.points(2)
def test_rms_norm_of_one_two_three_four(student):
    """RMSNorm of the row (1, 2, 3, 4) is (0.365, 0.730, 1.095, 1.461): its root-mean-square is sqrt(7.5) = 2.739."""
    x = row(1, 2, 3, 4)
    check(student, RMS, x, x / np.sqrt(7.5 + 1e-6),
          "The mean of the squares is (1 + 4 + 9 + 16) / 4 = 7.5: divide by sqrt(7.5 + eps) with eps = 1e-6. "
          "Not the standard deviation, not the length sqrt(30), and no mean subtracted.")


@pytest.mark.points(1)
def test_rms_norm_does_not_subtract_the_mean(student):
    """RMSNorm keeps the mean: the row (2, 2, 2, 2) becomes (1, 1, 1, 1) and (3, 5) becomes (0.728, 1.213)."""
    hint = ("RMSNorm only divides by the root-mean-square sqrt(mean(x ** 2) + eps): subtracting the mean, or "
            "dividing by the standard deviation, turns it into LayerNorm.")
    x = row(2, 2, 2, 2)
    check(student, RMS, x, x / np.sqrt(4.0 + 1e-6), hint)
    x = row(3, 5)
    check(student, RMS, x, x / np.sqrt(17.0 + 1e-6), hint)


@pytest.mark.points(1)
def test_rms_norm_eps_goes_inside_the_square_root(student):
    """eps is added to the mean of squares under the square root: with eps=3 the row (1, -1) becomes (0.5, -0.5)."""
    hint = ("Use the eps you are given, added to mean(x ** 2) before the square root: "
            "x / sqrt(mean(x ** 2) + eps), not x / (sqrt(mean(x ** 2)) + eps).")
    x = row(1, -1)
    check(student, RMS, x, x / np.sqrt(1.0 + 3.0), hint, 3.0)
    check(student, RMS, x, x / np.sqrt(1.0 + 1.0), hint, eps=1.0)


@pytest.mark.points(1)
def test_rms_norm_all_zero_row_stays_zero(student):
    """An all-zero row normalizes to zeros, not nan: eps keeps 0 / sqrt(0 + eps) finite."""
    hint = "Without eps an all-zero row is 0 / sqrt(0) = nan; keep eps under the square root, default 1e-6."
    check(student, RMS, row(0, 0, 0), np.zeros(3), hint)
    batch = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])  # mean of squares 0 and 3
    check(student, RMS, batch, np.array([np.zeros(3), batch[1] / np.sqrt(3.0 + 1e-6)]), hint)


@pytest.mark.points(1)
def test_rms_norm_default_eps_is_1e_6(student):
    """Without an eps argument eps is 1e-6: the row (0.001, -0.001), mean of squares 1e-6, becomes (0.707, -0.707)."""
    x = row(0.001, -0.001)
    check(student, RMS, x, x / np.sqrt(1e-6 + 1e-6),
          "The default must be eps=1e-6 (LayerNorm's is 1e-5); with a mean of squares as small as 1e-6, "
          "eps = 1e-5 would give (0.302, -0.302) and no eps (1, -1).")


@pytest.mark.points(1)
def test_rms_norm_normalizes_each_row_over_the_last_axis(student):
    """Each row of a 2-D batch is divided by its own root-mean-square, not by a column's or the whole array's."""
    x = np.array([[1.0, 2.0, 2.0],     # mean of squares 3
                  [3.0, 0.0, 4.0]])    # mean of squares 25 / 3
    check(student, RMS, x, np.array([x[0] / np.sqrt(3.0 + 1e-6), x[1] / np.sqrt(25.0 / 3.0 + 1e-6)]),
          RMS_AXIS_HINT)


@pytest.mark.points(1)
def test_rms_norm_rows_are_independent(student):
    """A row's output depends on that row alone: divided inside a batch it equals the row divided by itself."""
    expect_rows_independent(student, RMS, RMS_AXIS_HINT)


@pytest.mark.points(1)
def test_rms_norm_handles_3d_input(student):
    """A 3-D input (batch x sequence x features) is normalized along its last axis, one feature vector at a time."""
    x = np.array([[[1.0, 2.0, 2.0],       # mean of squares 3
                   [3.0, 0.0, 4.0]],      # 25 / 3
                  [[0.0, 0.0, 0.0],       # 0
                   [-2.0, -2.0, -2.0]]])  # 4
    expected = np.array([[x[0, 0] / np.sqrt(3.0 + 1e-6), x[0, 1] / np.sqrt(25.0 / 3.0 + 1e-6)],
                         [np.zeros(3), x[1, 1] / np.sqrt(4.0 + 1e-6)]])
    check(student, RMS, x, expected,
          "Use axis=-1 (the last axis, whatever the number of dimensions), not axis=1, which is the sequence "
          "axis of a 3-D input.")


@pytest.mark.points(1)
def test_rms_norm_gamma_scales_each_feature(student):
    """gamma of shape (d,) multiplies feature j of every normalized row by gamma[j]; gamma=None means no scaling."""
    rms = np.sqrt(np.array([[7.5], [5.0], [124.0], [1.0]]) + 1e-6)  # the rows' means of squares
    check(student, RMS, ROWS, ROWS / rms * GAMMA, GAMMA_HINT, gamma=GAMMA)
    check(student, RMS, ROWS, ROWS / rms, GAMMA_HINT, gamma=None)
    check(student, RMS, ROWS, ROWS / rms * GAMMA, "Keep the stub's signature, rms_norm(x, eps=1e-6, gamma=None): "
          "called by position, the third argument is gamma.", 1e-6, GAMMA)


@pytest.mark.points(1)
def test_rms_norm_keeps_the_shape_and_float64(student):
    """The output is a float64 array of the input's shape, for 1-D, 2-D and 3-D inputs (one-row batches included)."""
    expect_same_shape_float64(student, RMS)


@pytest.mark.points(1)
def test_rms_norm_leaves_its_input_unchanged(student):
    """rms_norm never modifies the x or gamma it is given."""
    expect_inputs_unchanged(student, RMS, ROWS[0])
    expect_inputs_unchanged(student, RMS, ROWS[:3])
    expect_inputs_unchanged(student, RMS, ROWS.reshape(2, 2, 4), gamma=GAMMA)


def _hidden_cases(rng, modes):
    """Every (number of dimensions, eps mode, gamma/beta mode) once, with random sizes and values."""
    for ndim in (1, 2, 3):
        for eps_mode in ("default", "keyword", "positional"):
            for mode in modes:
                shape = tuple(int(n) for n in rng.integers(1, 6, size=ndim - 1)) + (int(rng.integers(1, 9)),)
                d = shape[-1]
                loc = rng.uniform(-3.0, 3.0, size=shape[:-1] + (1,))
                scale = 10.0 ** rng.uniform(-2.0, 1.0, size=shape[:-1] + (1,))
                x = loc + scale * rng.standard_normal(shape)
                args = (float(rng.uniform(0.05, 2.0)),) if eps_mode == "positional" else ()
                kwargs = {"eps": float(10.0 ** rng.uniform(-8.0, 0.0))} if eps_mode == "keyword" else {}
                if "gamma" in mode:
                    kwargs["gamma"] = rng.uniform(-2.0, 2.0, size=d)
                if "beta" in mode:
                    kwargs["beta"] = rng.uniform(-2.0, 2.0, size=d)
                yield x, args, kwargs


def _hidden_compare(student, reference, rng, function, modes, hint):
    for x, args, kwargs in _hidden_cases(rng, modes):
        expected = getattr(reference, function)(x.copy(), *args, **{k: v.copy() if isinstance(v, np.ndarray) else v
                                                                     for k, v in kwargs.items()})
        check(student, function, x, expected, hint, *args, **kwargs)


@pytest.mark.points(3)
@pytest.mark.hidden
def test_layer_norm_matches_reference_on_random_inputs(student, reference, rng):
    """On random 1-D, 2-D and 3-D inputs with random eps, gamma and beta, layer_norm matches the reference."""
    _hidden_compare(student, reference, rng, LN, ((), ("gamma",), ("beta",), ("gamma", "beta")),
                    "Normalize along the last axis for any number of dimensions, use the eps you are given, "
                    "and apply gamma and beta whenever they are given.")


@pytest.mark.points(2)
@pytest.mark.hidden
def test_rms_norm_matches_reference_on_random_inputs(student, reference, rng):
    """On random 1-D, 2-D and 3-D inputs with random eps and gamma, rms_norm matches the reference."""
    _hidden_compare(student, reference, rng, RMS, ((), ("gamma",)),
                    "Divide by the root-mean-square along the last axis for any number of dimensions, use the eps "
                    "you are given, and apply gamma whenever it is given.")
