"""Checks for normalization.py: LayerNorm and RMSNorm over the last axis of any ndarray.

Public checks use hand-picked rows whose mean and variance are round numbers, so every expected
value is a closed form such as (x - 2.5) / sqrt(1.25 + 1e-5), and properties (shape, float64,
finite, inputs untouched, mean 0 and variance var / (var + eps) per row, gamma and beta as a
per-feature affine map) over the whole input domain. Hidden checks compare with the reference
over that domain: 1-D to 5-D inputs, zero, constant, tiny, huge and offset rows, eps = 0 and
the default, gamma and beta by keyword or position.
"""

import contextlib
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder.arena import Altered
from autograder.checks import (Described, call_text, expect_array, expect_array_close, fail, layout_of, show, show_pair,
                               unchanged)
from autograder.problems import CheckFailed

LN = "layer_norm"
RMS = "rms_norm"
RTOL, ATOL = 1e-6, 1e-9  # correct formulas differ by rounding only
# Outputs are compared relatively down to the smallest normal float (2.2e-308): ATOL (and
# DOMAIN_ATOL below) are absolute only for a row whose entries are at least as large as its
# spread (see ``tolerance``); a row of tiny entries (1e-100) whose eps dominates gives outputs
# near 3e-98, which must follow the formula as closely as outputs near 1. Below this floor,
# inside the subnormal range, rounding may differ.
VALUE_FLOOR = 1e-310


def row(*values) -> np.ndarray:
    return np.array(values, dtype=float)


def run(student, function, x, *args, return_args=False, **kwargs):
    """Call the student's function; returns the CallResult and how the call reads in a message."""
    result = student.call(function, x, *args, return_args=return_args, **kwargs)
    shown = np.array(x, copy=True)  # as it was at the call, whatever happens to x before a message uses it
    return result, Described(lambda: f"{call_text(function, shown, *args, **kwargs)} with x = {show(shown)}")


def call_parameters(function, args, kwargs):
    """(eps, gamma, beta) of a call, given by position or by keyword, the default eps filled in."""
    given = dict(zip(("eps", "gamma", "beta") if function == LN else ("eps", "gamma"), args))
    given.update(kwargs)
    eps = given.get("eps")
    return (DEFAULT_EPS[function] if eps is None else eps), given.get("gamma"), given.get("beta")


def rounding_allowance(x):
    """Per row, what a mean taken in another order may differ by in the row's own units (its standard
    deviation), as a fraction: a few units of the last place of the row's largest entry, over its
    spread. Negligible for any ordinary row; for rows 1e-12 of their size apart it is what separates
    correct routes (a running mean, Welford's variance) from the two-pass formula, which the grader's
    extreme rows happen to keep exact. Zeroed or one-pass outputs miss by far more."""
    with np.errstate(all="ignore"):
        x = np.asarray(x, dtype=float)
        spread = np.sqrt(x.var(axis=-1, keepdims=True))
        size = np.max(np.abs(x), axis=-1, keepdims=True)
        allowance = 4 * np.finfo(float).eps * size / spread
    return np.where(np.isfinite(allowance) & (spread > 0), allowance, 0.0)


def tolerance(function, x, eps, gamma, beta, atol):
    """The absolute tolerance of each output entry: ``atol`` times (1 + the row's largest normalized
    value) times |gamma| of its feature, plus ``atol`` times |beta| of its feature, plus VALUE_FLOOR.
    Where eps dominates a row (its largest |entry| is below sqrt(statistic + eps), as for a row of
    entries near 1e-100), the first term shrinks by that ratio: the row's outputs are then tiny,
    and rounding errors with them, so they are compared relatively. For LayerNorm the first term
    also takes the row's :func:`rounding_allowance` beside ``atol``."""
    with np.errstate(all="ignore"):
        x = np.asarray(x, dtype=float)
        statistic = x.var(axis=-1, keepdims=True) if function == LN else np.mean(np.square(x), axis=-1, keepdims=True)
        size = np.max(np.abs(x), axis=-1, keepdims=True)
        ratio = np.where(size == 0.0, 0.0, size / np.sqrt(statistic + eps))
        top = np.max(np.abs(_normalized(function, x, eps)), axis=-1, keepdims=True)
        scale = np.minimum(1.0, np.nan_to_num(ratio, nan=1.0, posinf=1.0)) * (1.0 + np.nan_to_num(top))
        allowance = rounding_allowance(x) if function == LN else 0.0
        gain, shift = (1.0 if gamma is None else np.abs(gamma)), (0.0 if beta is None else np.abs(beta))
    return (atol + allowance) * scale * gain + atol * shift + VALUE_FLOOR


def expect_values(got, expected, call, hint, atol=ATOL):
    """The returned array has the expected shape, holds no nan/inf, and matches to rounding."""
    array = expect_array(got, np.shape(expected), call)
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(f"{call} returned {show(array)}, with {array[index]} at index {index}; expected {show(expected)}.", hint)
    return expect_array_close(array, expected, call, RTOL, atol, hint)


def check(student, function, x, expected, hint, *args, **kwargs):
    result, call = run(student, function, x, *args, **kwargs)
    atol = tolerance(function, x, *call_parameters(function, args, kwargs), ATOL)
    with default_eps_told(function, args, kwargs,
                          lambda eps: misses(result.value, _normalized(function, x, eps, **kwargs), RTOL, ATOL)):
        return expect_values(result.value, expected, call, hint, atol)


# A default eps other than the stub's fails nearly every check that leaves eps out, and each
# check's own hint (about variances or axes) would send the student the wrong way: a result that
# is the right one for another eps gets a hint about the default instead.
DEFAULT_EPS = {LN: 1e-5, RMS: 1e-6}
OTHER_DEFAULTS = (0.0, 1e-12, 1e-8, 1e-6, 1e-5, 1e-3)  # the defaults of common libraries, and none


@contextlib.contextmanager
def default_eps_told(function, args, kwargs, miss):
    """A check of a call without eps that fails, on a result that is the right one for another eps
    than the default, fails with the hint about the default instead of its own. ``miss(eps)``
    says how far the result is from right for ``eps``, in tolerances; it is asked only on a failure."""
    try:
        yield
    except CheckFailed as failure:
        told = None if args or "eps" in kwargs else other_default_hint(function, miss)
        if told is None:
            raise
        raise CheckFailed(failure.message, told) from None


def other_default_hint(function, miss) -> str | None:
    """The hint for a call without eps whose result is the right one for another eps than the
    default: ``miss(eps)`` is how far the result is from right for ``eps``, in tolerances."""
    best = min((*OTHER_DEFAULTS, DEFAULT_EPS[function]), key=miss)
    if best == DEFAULT_EPS[function] or not miss(best) <= 1.0:
        return None
    return (f"Called without eps, your {function} gives what eps = {best:g} would: it must then use the default "
            f"of its signature in the stub, eps = {DEFAULT_EPS[function]:g}, under the square root.")


def misses(got, want, rtol, atol) -> float:
    """How far ``got`` is from ``want``, in tolerances (1 or less: close enough); inf if not comparable."""
    with np.errstate(all="ignore"):
        if not isinstance(got, np.ndarray) or got.shape != np.shape(want) or not np.all(np.isfinite(want)):
            return math.inf
        error = np.abs(got - want) / (atol + rtol * np.abs(want))
        return float(np.max(error, initial=0.0)) if np.all(np.isfinite(error)) else math.inf


def _normalized(function, x, eps, gamma=None, beta=None) -> np.ndarray:
    """``function`` of ``x`` by the spec's formula."""
    with np.errstate(all="ignore"):
        x = np.asarray(x, dtype=float)
        if function == LN:
            out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
        else:
            out = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
        return out * (1.0 if gamma is None else gamma) + (0.0 if beta is None else beta)


# x in another memory layout than numpy's default: the same values stored column by column
# (Fortran order), as a transposed array is. Numbers are what the contract is about, whatever the
# layout: code that walks x in memory order (ravel(order='K'), a raw buffer) mixes the rows up.
LAYOUT_HINT = ("x may be stored in any memory layout (a transposed array, or one in Fortran order, holds its columns "
               "one after another): take each row along the last axis by index, never by walking x in memory order.")


def fortran(x: np.ndarray) -> np.ndarray:
    """``x`` with the same values, stored in Fortran (column-major) order."""
    return np.asfortranarray(x)


def transposed(x: np.ndarray) -> np.ndarray:
    """``x`` with the same values, as the transpose of a C-ordered array (2-D: Fortran-contiguous)."""
    return np.ascontiguousarray(np.swapaxes(x, 0, -1)).swapaxes(0, -1)


def check_layout(student, function, x, expected, hint, *args, **kwargs):
    """``check`` on ``x`` stored in Fortran order and as a transpose: the same values must give the same result."""
    for laid_out, how in ((fortran(x), "stored in Fortran (column-major) order"), (transposed(x), "a transposed view")):
        result, _ = run(student, function, laid_out, *args, **kwargs)
        shown = np.array(x, copy=True)
        call = Described(lambda: f"{call_text(function, shown, *args, **kwargs)} with x = {show(shown)} ({how})")
        expect_values(result.value, expected, call, hint,
                      tolerance(function, x, *call_parameters(function, args, kwargs), ATOL))


def check_fine(student, function, x, expected, **kwargs):
    """A call with a many-digit gamma, whose result must match to FINE_RTOL: gamma is used unrounded."""
    result, call = run(student, function, x, **kwargs)
    expect_values(result.value, expected, call, GAMMA_HINT,  # the coarse tolerance first, with its own hints
                  tolerance(function, x, *call_parameters(function, (), kwargs), ATOL))
    expect_array_close(np.asarray(result.value), expected, call, FINE_RTOL, 1e-14,
                       "Multiply by gamma exactly as given, in float64: do not round it, or anything else, on the way.")


# --- LayerNorm -------------------------------------------------------------------------------

AXIS_HINT = ("Take the mean and the variance along the last axis, keeping that axis so they line up with each row; "
             "statistics down the batch are BatchNorm, and statistics over everything mix the rows together.")


@pytest.mark.points(2)
def test_layer_norm_of_one_two_three_four(student):
    """LayerNorm of the row (1, 2, 3, 4) is (-1.342, -0.447, 0.447, 1.342): mean 2.5, variance 1.25."""
    x = row(1, 2, 3, 4)
    check(student, LN, x, (x - 2.5) / np.sqrt(1.25 + 1e-5),
          "Subtract the row's mean (2.5) and divide by the square root of the variance plus eps, where the variance "
          "1.25 is the mean of the squared deviations and eps is 1e-5.")


@pytest.mark.points(1)
def test_layer_norm_uses_population_variance(student):
    """The variance divides by d, not d - 1: the row (0, 2) has variance 1 and becomes (-1.0, 1.0)."""
    hint = "LayerNorm uses the population variance: divide the sum of squared deviations by d, not by d - 1."
    x = row(0, 2)
    check(student, LN, x, (x - 1.0) / np.sqrt(1.0 + 1e-5), hint)
    x = row(2, 4, 6, 8, 10)
    check(student, LN, x, (x - 6.0) / np.sqrt(8.0 + 1e-5), hint)


NORMALIZED_HINT = ("A row that already has mean 0 and variance 1 is still divided by the square root of 1 plus eps: eps "
                   "counts on every row, so no row comes back as it was given.")
TINY_EPS_HINT = ("eps is added as it is given, however tiny: for a row of entries near 1e-100 (variance near 1e-200) "
                 "an eps of 1e-21 decides the result, so no eps is too small to keep.")


@pytest.mark.points(1)
def test_layer_norm_eps_goes_inside_the_square_root(student):
    """eps goes under the square root with the variance: with eps=1 the row (1, 3) becomes (-0.707, 0.707), and a tiny eps (1e-21) still counts for a row of tiny entries (1e-100)."""
    hint = ("Use the eps you are given, and add it to the variance under the square root, not to the standard "
            "deviation; the spec's formula shows where.")
    x = row(1, 3)
    check(student, LN, x, (x - 2.0) / np.sqrt(1.0 + 1.0), hint, eps=1.0)
    check(student, LN, NORMALIZED_ROWS, NORMALIZED_ROWS / np.sqrt(1.0 + 1.0), NORMALIZED_HINT, eps=1.0)
    check(student, LN, x, (x - 2.0) / np.sqrt(1.0 + 3.0), hint, 3.0)
    for x, args, kwargs, eps in TINY_EPS:
        check(student, LN, x, _normalized(LN, x, eps), TINY_EPS_HINT, *args, **kwargs)


@pytest.mark.points(1)
def test_layer_norm_constant_row_is_all_zeros(student):
    """A constant row such as (5, 5, 5, 5) has variance 0 and normalizes to zeros, not nan."""
    hint = ("A constant row has variance 0; eps under the square root keeps the division finite and gives zeros, "
            "where no eps gives 0/0 = nan. Keep eps, with its default from the stub.")
    check(student, LN, row(5, 5, 5, 5), np.zeros(4), hint)
    batch = np.array([[5.0, 5.0, 5.0, 5.0], [1.0, 2.0, 3.0, 4.0]])
    check(student, LN, batch, np.array([np.zeros(4), (batch[1] - 2.5) / np.sqrt(1.25 + 1e-5)]), hint)
    # However tiny, eps is not 0: code that rescales a row to dodge overflow, and eps with it, can
    # round eps to 0 (1e-300 * 2 ** -666) and make 0 / 0 of a large constant row.
    tiny = ("However tiny eps is (1e-300, even 5e-324), it is not 0: a constant row gives 0 divided by the square root of eps, which is 0. Add eps "
            "as given; if you rescale the row to keep its squares in range, eps rescaled with it can round to 0.")
    for value, eps in ((1e100, 1e-300), (-3e50, 5e-324), (7.0, 5e-324), (1e-100, 1e-300)):
        check(student, LN, row(value, value, value, value), np.zeros(4), tiny, eps)


@pytest.mark.points(1)
def test_layer_norm_default_eps_is_1e_5(student):
    """Without an eps argument eps is 1e-5: the row (0, 0.002), variance 1e-6, becomes (-0.302, 0.302)."""
    x = row(0, 0.002)
    check(student, LN, x, (x - 0.001) / np.sqrt(1e-6 + 1e-5),
          "Check layer_norm's default eps in the stub (PyTorch's LayerNorm uses the same); with a variance as small "
          "as 1e-6, another eps gives visibly different values.")
    check(student, LN, NORMALIZED_ROWS, NORMALIZED_ROWS / np.sqrt(1.0 + 1e-5), NORMALIZED_HINT)


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
    # the same values in another memory layout, 2-D and 3-D
    two = np.array([[1.0, 2.0, 3.0], [10.0, 20.0, 40.0]])  # variances 2/3 and 1400/9
    check_layout(student, LN, two, np.array([(two[0] - 2.0) / np.sqrt(2.0 / 3.0 + 1e-5),
                                             (two[1] - 70.0 / 3.0) / np.sqrt(1400.0 / 9.0 + 1e-5)]), LAYOUT_HINT)
    check_layout(student, LN, x, expected, LAYOUT_HINT)
    x3 = np.stack([x, x[::-1] * 2.0])  # shape (2, 3, 4)
    check_layout(student, LN, x3, np.stack([expected, _normalized(LN, x[::-1] * 2.0, 1e-5)]), LAYOUT_HINT)
    check(student, LN, WIDE_ROWS, _normalized(LN, WIDE_ROWS, 1e-5), WIDE_HINT[LN])


# Rows of 1,500 features (d has no upper bound): the statistics are those of every feature of the row,
# however many there are.
WIDE_ROWS = (np.random.default_rng(20261206).normal(size=(2, 1500)) * row(3.0, 0.5)[:, None]
             + row(-1.0, 2.0)[:, None])
WIDE_HINT = {LN: "However many features a row has, its mean and its variance are taken over all of them, in float64, "
                 "exactly as the formula says.",
             RMS: "However many features a row has, divide it by the square root of the mean of the squares of all its "
                  "features (plus eps): not the mean of their absolute values, and not an estimate from some of them."}


# A square batch: a statistic taken on the wrong axis still broadcasts, and gives wrong numbers.
SQUARE = np.array([[0.5, -1.0, 2.0, 3.5],
                   [4.0, 4.5, 3.0, -2.0],
                   [1.0, 1.0, 2.0, 7.0],
                   [-6.0, 0.0, 0.5, 2.5]])


SPREAD = {LN: "standard deviation", RMS: "root-mean-square"}
SPREAD_HINT = {LN: "Normalizing a row subtracts its mean and divides by its standard deviation (with eps inside the "
                   "square root), so that what comes back is spread about 1 around 0.",
               RMS: "RMSNorm divides a row by its root-mean-square (with eps inside the square root), so that what "
                    "comes back has a root-mean-square of about 1."}


def spread(function, values: np.ndarray) -> float:
    centred = values - np.mean(values) if function == LN else values
    return float(np.sqrt(np.mean(np.square(centred))))


def expect_rows_independent(student, function, hint):
    """Property: a row inside a batch is normalized as if alone, and other rows do not matter."""
    batch, call = run(student, function, SQUARE)
    batch = expect_array(batch.value, SQUARE.shape, call)
    for i, single in enumerate(SQUARE):
        alone, alone_call = run(student, function, single)
        alone = expect_array(alone.value, single.shape, alone_call)
        # Rows of SQUARE spread 1.7 to 3.2: returning them as they are, or zeros, is no normalization, and
        # independent rows count only for rows that are normalized (any variance, any eps, comes out near 1).
        if not 0.8 <= spread(function, alone) <= 1.25:
            fail(f"{alone_call} returned {show(alone)}, whose {SPREAD[function]} is {spread(function, alone):.4g}; a "
                 f"normalized row has a {SPREAD[function]} of about 1.", SPREAD_HINT[function])
        if not np.allclose(batch[i], alone, rtol=RTOL, atol=ATOL):
            in_batch, by_itself = show_pair(batch[i], alone)  # digits enough to see the difference
            fail(f"Row {i} of {call} is {in_batch}, but {alone_call} returned {by_itself}; "
                 "a row must be normalized the same way inside a batch as alone.", hint)
    changed = SQUARE.copy()
    changed[0] = [100.0, -50.0, 30.0, 0.0]
    after, after_call = run(student, function, changed)
    after = expect_array(after.value, changed.shape, after_call)
    if not np.allclose(after[1:], batch[1:], rtol=RTOL, atol=ATOL):
        now, before = show_pair(after[1:], batch[1:])
        fail(f"Changing only row 0 of the batch changed the outputs of other rows: {after_call} returned "
             f"rows 1-3 = {now} where they were {before}.", hint)
    # Rows that are alike whatever they hold are independent too: independence counts only for an
    # output made from its row (row 0 changed here is no rescaling of what it was).
    if np.allclose(after[0], batch[0], rtol=RTOL, atol=ATOL):
        fail(f"Changing row 0 of the batch from {show(SQUARE[0])} to {show(changed[0])} left its output at "
             f"{show(after[0])}; a normalized row is made from that row's own values.",
             "Normalize each row from its own numbers: its output changes when the row does.")


@pytest.mark.points(1)
def test_layer_norm_rows_are_independent(student):
    """A row's output depends on that row alone: normalized inside a batch (to a spread of about 1) it equals the row normalized by itself."""
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
          "Take the statistics over the last axis, whatever the number of dimensions: the second axis is the "
          "sequence axis of a 3-D input.")


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
# A gamma with many significant digits, checked to 1e-10 relative: correct formulas agree to a
# few ulps, while gamma rounded (to 6 decimals, or to float32) is off by 1e-8 to 1e-7.
FINE_GAMMA = row(1.23456789, -0.987654321, 2.718281828459045, 0.314159265358979)
FINE_BETA = row(0.123456789, 1.0, -2.5, 0.0)
FINE_RTOL = 1e-10
# gammas and betas of special values, on every seed: all zero, some zero, all one, negative. A
# path that skips gamma or beta when they look like the identity (or like nothing) gets them wrong.
# Huge and tiny ones too (gamma and beta are any arrays of shape (d,)): outputs past 1e6 or near
# 1e-100 are what the formula gives, so a bound on the output, or a flush of tiny ones, shows.
SPECIAL_GAMMAS = (row(0.0, 0.0, 0.0, 0.0), row(0.0, 1.0, -1.0, 2.0), row(1.0, 1.0, 1.0, 1.0),
                  row(-1.0, -1.0, -1.0, -1.0), row(-2.0, -0.5, -1.0, -3.0), row(0.0, 0.0, 0.0, 5.0),
                  row(1e7, -2e12, 3e100, 1e-100))
SPECIAL_BETAS = (row(0.0, 0.0, 0.0, 0.0), row(0.0, 0.0, 1.0, -1.0), row(1.0, 1.0, 1.0, 1.0),
                 row(-1.0, -1.0, -1.0, -1.0), row(-2.0, -0.5, -1.0, -3.0), row(-4e7, 1e20, 0.0, 2e-100))
SPECIAL_HINT = ("Apply gamma and beta exactly as given, whatever their values (zeros, ones, negative numbers): "
                "scale by gamma, then shift by beta, with no shortcut for values that look special.")
# d = 1: every row is constant, so LayerNorm gives 0 * gamma + beta = beta, and RMSNorm gives
# x / sqrt(x ** 2 + eps) * gamma (not the sign of x).
D1 = np.array([[3.0], [-1.0], [0.0], [2.5e-4]])
# Rows already normalized (mean 0, variance 1 and mean square 1): eps still counts, so they come back
# divided by sqrt(1 + eps), not as they are.
NORMALIZED_ROWS = np.array([[-1.0, 1.0, 1.0, -1.0], [1.0, -1.0, -1.0, 1.0]])


# One large entry among many zeros: the normalized spike is about sqrt(d) (14.1 for d = 200), far
# past what ordinary rows reach (about 2), so a bound on the output (a clip to +-5) shows here.
SPIKES = np.zeros((4, 200))
SPIKES[0, 17], SPIKES[1, 0], SPIKES[2, 199], SPIKES[3, 100:102] = 1.0, -3.5e3, 50.0, (2.0, -2.0)
# Rows of entries near 1e-100 with a tiny eps, by keyword and by position: eps dwarfs or matches the
# variance (about 1.6e-200), so code that drops an eps "too small to matter" gives rows near +-1 here.
TINY_ROWS = np.array([[1e-100, 2e-100, 4e-100], [3e-120, -1e-120, 5e-120]])
TINY_EPS = [(TINY_ROWS, (), {"eps": 1e-21}, 1e-21), (TINY_ROWS, (1e-200,), {}, 1e-200),
            (TINY_ROWS * 1e20, (), {"eps": 3e-160}, 3e-160)]


def special_cases(function):
    """The special gammas and betas on ROWS, d = 1 inputs, spikes in wide rows and tiny rows with a
    tiny eps, as (x, args, kwargs, eps) cases."""
    eps = DEFAULT_EPS[function]
    cases = [(ROWS, (), {"gamma": gamma}, eps) for gamma in SPECIAL_GAMMAS]
    cases += [(SPIKES, (), {}, eps), (SPIKES[:2, :65].copy(), (), {}, eps), *TINY_EPS,
              (NORMALIZED_ROWS, (), {}, eps), (TINY_ROWS, (), {}, eps)]
    cases += [(D1, (), {"gamma": row(-2.0)}, eps), (D1.reshape(2, 2, 1), (0.5, row(4.0)), {}, 0.5),
              (D1[:2], (), {}, eps)]
    if function == LN:
        cases += [(ROWS, (), {"beta": beta}, eps) for beta in SPECIAL_BETAS]
        cases += [(ROWS, (), {"gamma": gamma, "beta": beta}, eps) for gamma, beta in zip(SPECIAL_GAMMAS, SPECIAL_BETAS)]
        cases += [(D1, (), {"beta": row(2.0)}, eps), (D1, (), {"gamma": row(-3.0), "beta": row(0.5)}, eps),
                  (D1.reshape(2, 2, 1), (0.1, row(2.0), row(-1.0)), {}, 0.1)]
    else:
        cases += [(D1 * 1e-3, (), {}, eps), (D1.reshape(2, 2, 1), (1e-6, row(0.5)), {}, 1e-6)]
    return cases


GAMMA_HINT = ("gamma has one factor per feature: multiply the normalized array by gamma of shape (d,), "
              "which broadcasts along the last axis (column j is scaled by gamma[j]).")
READ_ONLY_HINT = ("Leaving an array as it was means its flags too: the caller must still be able to write to it. "
                  "Mark a copy read-only if you want one that nothing can change.")
MAP_HINT = ("gamma and beta hold one factor and one shift per feature: multiply the normalized array by gamma and "
            "add beta, both of shape (d,), whatever x's number of dimensions; they broadcast along the last axis "
            "(column j is scaled by gamma[j], then shifted by beta[j]).")


@pytest.mark.points(1)
def test_layer_norm_gamma_scales_each_feature(student):
    """gamma of shape (d,) multiplies feature j of every normalized row by gamma[j], at full precision (a gamma such as 1.23456789 is used as it is)."""
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA, GAMMA_HINT, gamma=GAMMA)
    for gamma in SPECIAL_GAMMAS:
        check(student, LN, ROWS, ROWS_NORMALIZED * gamma, SPECIAL_HINT, gamma=gamma)
    check_fine(student, LN, ROWS, ROWS_NORMALIZED * FINE_GAMMA + FINE_BETA, gamma=FINE_GAMMA, beta=FINE_BETA)


@pytest.mark.points(1)
def test_layer_norm_beta_shifts_each_feature_after_scaling(student):
    """beta of shape (d,) is added to feature j after the scaling: out = x_hat * gamma + beta."""
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA + BETA,
          "Scale first, shift second: gamma multiplies the normalized values and beta is added afterwards, "
          "not before the scaling; and do not forget beta.",
          gamma=GAMMA, beta=BETA)
    check(student, LN, ROWS, ROWS_NORMALIZED * GAMMA + BETA,
          "Keep the stub's signature and parameter order: called by position, the third argument is gamma and the "
          "fourth is beta.", 1e-5, GAMMA, BETA)
    for gamma, beta in zip(SPECIAL_GAMMAS, SPECIAL_BETAS):
        check(student, LN, ROWS, ROWS_NORMALIZED * gamma + beta, SPECIAL_HINT, gamma=gamma, beta=beta)
        check(student, LN, ROWS, ROWS_NORMALIZED + beta, SPECIAL_HINT, beta=beta)
    # d = 1: every row is constant and normalizes to 0, so the result is beta
    check(student, LN, D1, np.full((4, 1), 2.0), SPECIAL_HINT + " A row of one feature normalizes to 0, so the "
          "output is beta.", beta=row(2.0))
    check(student, LN, D1, np.full((4, 1), 0.5), SPECIAL_HINT + " A row of one feature normalizes to 0, so the "
          "output is beta.", gamma=row(-3.0), beta=row(0.5))


@pytest.mark.points(1)
def test_layer_norm_gamma_and_beta_are_optional(student):
    """gamma=None means no scaling and beta=None no shift, and either may be given without the other."""
    x = ROWS[0]
    x_hat = ROWS_NORMALIZED[0]
    hint = ("gamma and beta are independent: a missing gamma means no scaling and a missing beta means no shift, and "
            "either may be given without the other.")
    check(student, LN, x, x_hat, hint, gamma=None, beta=None)
    check(student, LN, x, x_hat + BETA, hint, beta=BETA)
    check(student, LN, x, x_hat * GAMMA, hint, gamma=GAMMA, beta=None)


# And a batch of 52,000 entries in rows of 2,000 features: float64 and the shape hold for every size.
SHAPES = ((5,), (1, 5), (3, 2), (2, 1, 5), (2, 3, 4), (26, 2000))


def expect_same_shape_float64(student, function):
    for shape in SHAPES:
        x = np.arange(np.prod(shape), dtype=float).reshape(shape) % 7 - 2.5
        result, call = run(student, function, x)
        array = expect_array(result.value, shape, call)
        if array.dtype != np.float64:
            fail(f"{call} returned an array of {array.dtype}; expected float64, like the input.",
                 "Keep the computation and the result in double precision (float64), as the spec's Output asks.")


@pytest.mark.points(1)
def test_layer_norm_keeps_the_shape_and_float64(student):
    """The output is a float64 array of the input's shape, for 1-D, 2-D and 3-D inputs (one-row batches included)."""
    expect_same_shape_float64(student, LN)


def changed_to(now, was) -> str:
    """What an input became, at enough digits to see how it differs from what it was."""
    if isinstance(now, np.ndarray) and isinstance(was, np.ndarray) and now.shape == was.shape:
        now_text, was_text = show_pair(now, was)
        return f"{now_text} (it was {was_text})"
    return show(now)


def expect_inputs_unchanged(student, function, x, **kwargs):
    sent = {name: value.copy() for name, value in kwargs.items()}
    result, call = run(student, function, x.copy(order="K"), return_args=True, **kwargs)
    hint = ("Do not modify the arrays you are given in place, not even to undo it afterwards (that leaves rounding "
            "differences): compute the result in new arrays, or work on a copy.")
    if not unchanged(result.args_after[0], x):
        now = result.args_after[0]
        reshaped = isinstance(now, np.ndarray) and now.shape != x.shape
        fail(f"{call} changed its input x{layout_of(x)} to {changed_to(now, x)}; x must be left as it was.",
             "Setting x.shape reshapes the caller's own array: reshape a copy or a view (x.reshape) instead."
             if reshaped else READ_ONLY_HINT if isinstance(now, Altered) else hint)
    for name, value in sent.items():
        if not unchanged(result.kwargs_after[name], value):
            fail(f"{call} changed its argument {name} to {show(result.kwargs_after[name])}; "
                 f"it must be left as {show(value)}.",
                 READ_ONLY_HINT if isinstance(result.kwargs_after[name], Altered) else hint)
    expect_array(result.value, x.shape, call)  # the result in a new array: doing nothing earns no point


@pytest.mark.points(1)
def test_layer_norm_leaves_its_input_unchanged(student):
    """layer_norm returns a new array of x's shape and never modifies the x, gamma or beta it is given."""
    expect_inputs_unchanged(student, LN, ROWS[0])
    expect_inputs_unchanged(student, LN, ROWS[:3])
    expect_inputs_unchanged(student, LN, ROWS.reshape(2, 2, 4), gamma=GAMMA, beta=BETA)
    # Fortran-ordered and transposed x (any layout is allowed): an edit made only where x is not
    # C-contiguous shows here, as x reaches the function laid out as it is.
    expect_inputs_unchanged(student, LN, np.asfortranarray(ROWS[:3]))
    expect_inputs_unchanged(student, LN, ROWS[:3].T)
    # A row whose mean, taken away in place and added back, does not give back the same bits.
    expect_inputs_unchanged(student, LN, np.array([0.3, 1.1, 2.7, -0.6]))
    # Negative zeros: made 0.0 in place, they compare equal with ==, but they are not what was given.
    expect_inputs_unchanged(student, LN, row(-0.0, 1.0, -0.0, 3.0), gamma=row(-0.0, 2.0, -0.0, 1.0),
                            beta=row(-0.0, -0.0, 0.5, -0.0))


# --- RMSNorm ---------------------------------------------------------------------------------

RMS_AXIS_HINT = ("Take the mean of squares along the last axis, keeping that axis so it lines up with each row; "
                 "statistics down the batch divide each feature by the whole batch, and statistics over everything "
                 "mix the rows together.")


@pytest.mark.points(2)
def test_rms_norm_of_one_two_three_four(student):
    """RMSNorm of the row (1, 2, 3, 4) is (0.365, 0.730, 1.095, 1.461): its root-mean-square is sqrt(7.5) = 2.739."""
    x = row(1, 2, 3, 4)
    check(student, RMS, x, x / np.sqrt(7.5 + 1e-6),
          "The mean of the squares is (1 + 4 + 9 + 16) / 4 = 7.5: divide by the square root of 7.5 plus eps, eps "
          "being 1e-6. Not the standard deviation, not the length, and no mean subtracted.")


@pytest.mark.points(1)
def test_rms_norm_does_not_subtract_the_mean(student):
    """RMSNorm keeps the mean: the row (2, 2, 2, 2) becomes (1, 1, 1, 1) and (3, 5) becomes (0.728, 1.213)."""
    hint = ("RMSNorm only divides by the root-mean-square of the row: subtracting the mean, or dividing by the "
            "standard deviation, turns it into LayerNorm.")
    x = row(2, 2, 2, 2)
    check(student, RMS, x, x / np.sqrt(4.0 + 1e-6), hint)
    x = row(3, 5)
    check(student, RMS, x, x / np.sqrt(17.0 + 1e-6), hint)


@pytest.mark.points(1)
def test_rms_norm_eps_goes_inside_the_square_root(student):
    """eps is added to the mean of squares under the square root: with eps=3 the row (1, -1) becomes (0.5, -0.5), and a tiny eps (1e-21) still counts for a row of tiny entries (1e-100)."""
    hint = ("Use the eps you are given, and add it to the mean of squares under the square root, not after the root; "
            "the spec's formula shows where.")
    x = row(1, -1)
    check(student, RMS, x, x / np.sqrt(1.0 + 3.0), hint, 3.0)
    check(student, RMS, x, x / np.sqrt(1.0 + 1.0), hint, eps=1.0)
    for x, args, kwargs, eps in TINY_EPS:
        check(student, RMS, x, _normalized(RMS, x, eps), TINY_EPS_HINT, *args, **kwargs)


@pytest.mark.points(1)
def test_rms_norm_all_zero_row_stays_zero(student):
    """An all-zero row normalizes to zeros, not nan: eps keeps 0 / sqrt(0 + eps) finite."""
    hint = ("An all-zero row has root-mean-square 0; without eps under the square root it becomes nan. "
            "Keep eps, with its default from the stub.")
    check(student, RMS, row(0, 0, 0), np.zeros(3), hint)
    batch = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])  # mean of squares 0 and 3
    check(student, RMS, batch, np.array([np.zeros(3), batch[1] / np.sqrt(3.0 + 1e-6)]), hint)
    for eps in (1e-300, 5e-324):  # however tiny, eps is not 0
        check(student, RMS, row(0, 0, 0), np.zeros(3),
              "However tiny eps is, it is not 0: an all-zero row gives 0 divided by the square root of eps, which is 0. Add eps as given.", eps)


@pytest.mark.points(1)
def test_rms_norm_default_eps_is_1e_6(student):
    """Without an eps argument eps is 1e-6: the row (0.001, -0.001), mean of squares 1e-6, becomes (0.707, -0.707)."""
    x = row(0.001, -0.001)
    check(student, RMS, x, x / np.sqrt(1e-6 + 1e-6),
          "Check rms_norm's default eps in the stub (it differs from LayerNorm's); with a mean of squares as small "
          "as 1e-6, another eps gives visibly different values.")


@pytest.mark.points(1)
def test_rms_norm_normalizes_each_row_over_the_last_axis(student):
    """Each row of a 2-D batch is divided by its own root-mean-square, not by a column's or the whole array's."""
    x = np.array([[1.0, 2.0, 2.0],     # mean of squares 3
                  [3.0, 0.0, 4.0]])    # mean of squares 25 / 3
    expected = np.array([x[0] / np.sqrt(3.0 + 1e-6), x[1] / np.sqrt(25.0 / 3.0 + 1e-6)])
    check(student, RMS, x, expected, RMS_AXIS_HINT)
    # the same values in another memory layout, 2-D and 3-D
    check_layout(student, RMS, x, expected, LAYOUT_HINT)
    x3 = np.stack([x, -0.5 * x[::-1], x * 3.0])  # shape (3, 2, 3)
    check_layout(student, RMS, x3, _normalized(RMS, x3, 1e-6), LAYOUT_HINT)
    check(student, RMS, WIDE_ROWS, _normalized(RMS, WIDE_ROWS, 1e-6), WIDE_HINT[RMS])


@pytest.mark.points(1)
def test_rms_norm_rows_are_independent(student):
    """A row's output depends on that row alone: divided inside a batch (to a root-mean-square of about 1) it equals the row divided by itself."""
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
          "Take the statistics over the last axis, whatever the number of dimensions: the second axis is the "
          "sequence axis of a 3-D input.")


@pytest.mark.points(1)
def test_rms_norm_gamma_scales_each_feature(student):
    """gamma of shape (d,) multiplies feature j of every normalized row by gamma[j], at full precision (a gamma such as 1.23456789 is used as it is); gamma=None means no scaling."""
    rms = np.sqrt(np.array([[7.5], [5.0], [124.0], [1.0]]) + 1e-6)  # the rows' means of squares
    check(student, RMS, ROWS, ROWS / rms * GAMMA, GAMMA_HINT, gamma=GAMMA)
    for gamma in SPECIAL_GAMMAS:
        check(student, RMS, ROWS, ROWS / rms * gamma, SPECIAL_HINT, gamma=gamma)
    # d = 1: each entry is divided by sqrt(its square + eps)
    check(student, RMS, D1, D1 / np.sqrt(D1 ** 2 + 1e-6) * -2.0, SPECIAL_HINT, gamma=row(-2.0))
    check_fine(student, RMS, ROWS, ROWS / rms * FINE_GAMMA, gamma=FINE_GAMMA)
    check(student, RMS, ROWS, ROWS / rms, GAMMA_HINT, gamma=None)
    check(student, RMS, ROWS, ROWS / rms * GAMMA, "Keep the stub's signature and parameter order: called by "
                                                  "position, the third argument is gamma.", 1e-6, GAMMA)


@pytest.mark.points(1)
def test_rms_norm_keeps_the_shape_and_float64(student):
    """The output is a float64 array of the input's shape, for 1-D, 2-D and 3-D inputs (one-row batches included)."""
    expect_same_shape_float64(student, RMS)


@pytest.mark.points(1)
def test_rms_norm_leaves_its_input_unchanged(student):
    """rms_norm returns a new array of x's shape and never modifies the x or gamma it is given."""
    expect_inputs_unchanged(student, RMS, ROWS[0])
    expect_inputs_unchanged(student, RMS, ROWS[:3])
    expect_inputs_unchanged(student, RMS, ROWS.reshape(2, 2, 4), gamma=GAMMA)
    # Fortran-ordered and transposed x (any layout is allowed): an edit made only where x is not
    # C-contiguous shows here, as x reaches the function laid out as it is.
    expect_inputs_unchanged(student, RMS, np.asfortranarray(ROWS[:3]))
    expect_inputs_unchanged(student, RMS, ROWS[:3].T)
    # A row that, divided by its root-mean-square in place and multiplied back, is not the same bits.
    expect_inputs_unchanged(student, RMS, np.array([3.0, 4.0, 0.0]))
    # Negative zeros: made 0.0 in place, they compare equal with ==, but they are not what was given.
    expect_inputs_unchanged(student, RMS, row(-0.0, 1.0, -0.0, 3.0), gamma=row(-0.0, 2.0, -0.0, 1.0))


# --- the input domain, clause by clause from the spec -----------------------------------------
# x: float64, any number of dimensions (1-D to 5-D here), the last axis d >= 1 (d = 1 makes every
# row constant), and now and then a wide or tall one: d from 65 to 200, or 65 to 80 rows (a path
# taken only past 64 rows or features must be right too; those rows come from a drawn seed). Rows: all zero, constant, ordinary, offset far from 0, one spike, at magnitudes
# from 1e-100 to 1e100. eps: "a small float >= 0": left at its default, 0, or anything up to 100.
# With eps = 0 a row of variance 0 (LayerNorm) or an all-zero row (RMSNorm) is 0 / 0, which the
# spec leaves out: such rows are never sent with eps = 0. Rows whose statistics correct formulas
# could round apart (a spread under 1e-6 of the row's size, beside eps) are not sent either; up
# to there, two-pass formulas agree to about 2e-9 (DOMAIN_ATOL), and a one-pass variance does not.
DOMAIN_ATOL = 1e-8  # times (1 + the largest expected value)
MAGNITUDES = (-100, -30, -8, -3, -1, 0, 1, 3, 8, 30, 100)
EPSILONS = st.one_of(st.none(), st.just(0.0), st.sampled_from((1e-12, 1e-8, 1e-6, 1e-5, 1e-3, 0.1, 1.0, 3.0, 100.0)),
                     st.floats(0.0, 10.0))


def _exact_constant(value: float) -> bool:
    """Whether d copies of ``value`` sum exactly in any order (at most 40 significant bits)."""
    mantissa, _ = math.frexp(value)
    return float(mantissa * 2 ** 40).is_integer()


def _fair_row(r: np.ndarray, eps: float, function: str) -> bool:
    if np.ptp(r) == 0:
        if eps == 0.0:
            return False
        return function == RMS or _exact_constant(float(r[0]))
    if function == RMS:
        return eps > 0.0 or bool(np.any(r != 0))
    return float(np.max(np.abs(r))) <= 1e6 * math.sqrt(float(np.var(r)) + eps)


@st.composite
def rows(draw, d: int):
    kind = draw(st.sampled_from(("zeros", "constant", "ordinary", "ordinary", "offset", "offset", "spike")))
    scale = 10.0 ** draw(st.sampled_from(MAGNITUDES))
    if kind == "zeros":
        return np.zeros(d)
    if kind == "constant":
        return np.full(d, draw(st.integers(-1000, 1000)) * 2.0 ** draw(st.integers(-40, 40)))
    if kind == "spike":
        r = np.zeros(d)
        r[draw(st.integers(0, d - 1))] = draw(st.sampled_from((1.0, -1.0, 3.5))) * scale
        return r
    ints = np.array(draw(st.lists(st.integers(-1000, 1000), min_size=d, max_size=d)), dtype=float)
    offset = draw(st.sampled_from((1e3, -1e4, 1e5, 1e6, -1e7, 1e8))) if kind == "offset" else 0.0
    return (ints + offset) * scale / 8.0


# Wide and tall shapes: (rows..., d) with d past 64 or 128, or more than 64 rows in all.
LARGE_SHAPES = ((65,), (200,), (2, 65), (3, 130), (2, 200), (70, 4), (80, 3), (2, 36, 5), (66, 65), (1, 1, 129))


def _large_row(rng, d: int, kind: int) -> np.ndarray:
    """A row from the rng: ordinary, offset far from 0 (1000.3 give or take 1e-3), or spread and offset."""
    if kind == 0:
        return rng.integers(-1000, 1001, size=d) * 10.0 ** rng.integers(-3, 4) / 8.0
    if kind == 1:
        return 1000.3 + 1e-3 * rng.normal(size=d)
    return rng.normal(size=d) * rng.uniform(0.1, 10.0) + rng.uniform(-1e3, 1e3)


@st.composite
def norm_inputs(draw, function: str, with_beta: bool):
    """(x, args, kwargs, eps): one call of ``function`` from the contract's whole domain."""
    given_eps = draw(EPSILONS)
    eps = ({LN: 1e-5, RMS: 1e-6}[function] if given_eps is None else given_eps)
    if draw(st.integers(0, 4)) == 0:  # wide or tall, drawn from a seed (entry by entry would be too costly)
        shape = draw(st.sampled_from(LARGE_SHAPES))
        d = shape[-1]
        rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
        kinds = rng.integers(0, 3, size=math.prod(shape[:-1]))
        x = np.array([_large_row(rng, d, k) for k in kinds])
        for i, r in enumerate(x):
            if not _fair_row(r, eps, function):
                x[i] = _large_row(rng, d, 2)
        x = x.reshape(shape)
        seeded = rng.integers(-1000, 1001, size=(2, d)) / 64
        factors = st.sampled_from((0, 1)).map(lambda i: seeded[i].copy())
    else:
        ndim = draw(st.sampled_from((1, 2, 2, 3, 3, 4, 5)))
        lead = tuple(draw(st.lists(st.integers(1, 3), min_size=ndim - 1, max_size=ndim - 1)))
        d = draw(st.one_of(st.sampled_from((1, 2, 3, 4)), st.integers(1, 16)))
        count = math.prod(lead)
        x = np.array([draw(rows(d).filter(lambda r: _fair_row(r, eps, function)))
                      for _ in range(count)]).reshape(lead + (d,))
        factors = st.lists(st.integers(-1000, 1000), min_size=d, max_size=d).map(
            lambda k: np.array(k, dtype=float) / 64)
    params = {}
    if draw(st.booleans()):
        params["gamma"] = draw(factors)
    if with_beta and draw(st.booleans()):
        params["beta"] = draw(factors)
    if given_eps is not None and draw(st.booleans()):  # by position: eps, gamma, beta in the stub's order
        names = ("gamma", "beta") if with_beta else ("gamma",)
        args = (given_eps,) + tuple(params.get(name) for name in names)
        return x, args, {}, eps
    kwargs = dict(params) if given_eps is None else {"eps": given_eps, **params}
    return x, (), kwargs, eps


# Rows far from 0 (their size about 1e6 times their spread), where a one-pass variance rounds away.
# Not integers: their squares must round, or a one-pass variance happens to come out exact.
FAR_ROWS = np.array([1e6 / 3 + np.arange(8.0) * 0.37, -1.4e6 + np.sqrt(np.arange(8.0))])


def extreme_rows(function):
    """Rows much farther from 0 than their spread (1e-8 to 1e-13 of their size), and a row of entries
    near 1e-140 with no eps (its variance, near 1e-280, is still a normal float): an output zeroed
    below some relative spread, or below some variance, shows on them. Every sum and deviation of
    these rows is exact in float64, so every correct route gives the same outputs."""
    farther = np.array([1e8 + np.arange(4.0), -1e12 + np.array([0.0, 0.5, 1.5, 3.0]),
                        2.5e13 + np.array([0.25, 0.0, 1.0, 0.5])])
    return [(farther, (), {}, DEFAULT_EPS[function]), (np.array([[1e-140, -2e-140, 3e-140]]), (0.0,), {}, 0.0)]


# Past 64 rows and past 64 and 128 features, on every seed: a path taken only for large inputs
# (statistics of the whole block for the rows after the 64th, d - 1 for wide rows, a float32 mean
# for very wide ones) must be right too. The offset rows (1000.3 give or take 1e-3) lose their
# spread to a float32 mean.
_RNG = np.random.default_rng(20261201)
TALL = _RNG.normal(size=(72, 6)) * (1.0 + np.arange(72.0)[:, None] % 5) + np.arange(72.0)[:, None]
WIDE = _RNG.normal(size=(3, 65)) * row(1.0, 3.0, 0.5)[:, None] + row(0.0, -2.0, 7.0)[:, None]
OFFSET = 1000.3 + 1e-3 * _RNG.normal(size=200)
VERY_WIDE = np.array([OFFSET, _RNG.normal(size=200) * 3.0 - 1.0])
TALL_3D = _RNG.normal(size=(2, 40, 3)) * 2.0 + 0.5
LARGE_CASES = [(TALL, (), {}), (WIDE, (), {}), (OFFSET, (), {}), (VERY_WIDE, (), {}), (TALL_3D, (), {})]


def large_cases(function):
    """The large inputs, as the property's (x, args, kwargs, eps) cases, with the default eps."""
    return [(x, args, kwargs, DEFAULT_EPS[function]) for x, args, kwargs in LARGE_CASES]


def describe_input(function):
    return lambda case: f"{call_text(function, case[0], *case[1], **case[2])} with x = {show(case[0])}"


def _gamma_beta(case):
    x, args, kwargs, eps = case
    named = dict(zip(("gamma", "beta"), args[1:]))
    named.update({k: v for k, v in kwargs.items() if k in ("gamma", "beta")})
    return named.get("gamma"), named.get("beta")


def expect_promises(student, function, case):
    """Every promise that holds for any input: a float64 array of x's shape, finite, inputs left
    as they were, and per row the normalization's defining statistics."""
    x, args, kwargs, eps = case
    result, call = run(student, function, x.copy(order="K"), *args, return_args=True, **kwargs)
    shown = np.array(x, copy=True)
    call = Described(lambda: f"{call_text(function, shown, *args, **kwargs)} with x = {show(shown)}")
    out = expect_array(result.value, x.shape, call)
    if out.dtype != np.float64:
        fail(f"{call} returned an array of {out.dtype}; expected float64, like the input.",
             "Keep the computation in float64.")
    if not np.all(np.isfinite(out)):
        fail(f"{call} returned {show(out)}, which holds nan or inf.",
             "Keep eps under the square root; a zero or constant row must give zeros, not 0 / 0.")
    after = [result.args_after[0]] + list(result.args_after[1:]) + list((result.kwargs_after or {}).values())
    before = [x] + list(args) + list(kwargs.values())
    for was, now in zip(before, after):
        if isinstance(was, np.ndarray) and not unchanged(now, was):
            fail(f"{call} changed one of its input arrays to {changed_to(now, was)}; inputs must be left as they "
                 "were.", "Do not modify the arrays you are given in place, not even to undo it afterwards (that "
                 "leaves rounding differences): compute the result in new arrays, or work on a copy.")
    gamma, beta = _gamma_beta(case)
    plain = out
    if gamma is not None or beta is not None:
        # The same eps as the call, given or not: with a default of its own, a student's plain call
        # and gamma call then agree, and its default is told apart below, not as a gamma mistake.
        given = (eps,) if args or "eps" in kwargs else ()
        plain_result, plain_call = run(student, function, x, *given)
        plain = expect_array(plain_result.value, x.shape, plain_call)
        mapped = plain * (1.0 if gamma is None else gamma) + (0.0 if beta is None else beta)
        with np.errstate(all="ignore"):
            top = np.max(np.abs(plain), axis=-1, keepdims=True)
            atol = DOMAIN_ATOL * ((1.0 + top) * (1.0 if gamma is None else np.abs(gamma))
                                  + (0.0 if beta is None else np.abs(beta))) + VALUE_FLOOR
        if not np.allclose(out, mapped, rtol=RTOL, atol=atol):
            given = [name for name, value in (("gamma", gamma), ("beta", beta)) if value is not None]
            formula = "out" + (" * gamma" if gamma is not None else "") + (" + beta" if beta is not None else "")
            fail(f"{call} returned {show(out)}, but {plain_call} gave out = {show(plain)}, so with "
                 f"{' and '.join(given)} it should return {formula} = {show(mapped)}, feature by feature.",
                 MAP_HINT)  # one hint for both: a hidden case's hint must not say which it passed
    rows_x = x.reshape(-1, x.shape[-1])
    rows_out = plain.reshape(-1, x.shape[-1])
    if function == LN:
        var = rows_x.var(axis=-1)
        want = var / (var + eps)
        got_mean, got_var = rows_out.mean(axis=-1), (rows_out ** 2).mean(axis=-1)
        # relative to the row's own outputs down to the smallest normal float: outputs near 3e-98 (a row
        # of tiny entries whose eps dominates) keep their mean 0 and mean square as outputs near 1 do
        allowance = rounding_allowance(rows_x)[:, 0]
        bad = ~(np.isclose(got_mean, 0.0, rtol=0, atol=(1e-6 + allowance) * np.sqrt(want) + VALUE_FLOOR)
                & (np.abs(got_var - want) <= (1e-5 + 2 * allowance) * np.abs(want) + VALUE_FLOOR))
        hint = ("Per row: subtract the row's mean and divide by the square root of its population variance plus eps, "
                "over the last axis whatever the number of dimensions, with the eps you are given (0 included).")
        what = "mean 0 and mean square var / (var + eps) = {want:.6g}, but has mean {m:.6g} and mean square {v:.6g}"
    else:
        ms = (rows_x ** 2).mean(axis=-1)
        want = ms / (ms + eps)
        got_var = (rows_out ** 2).mean(axis=-1)
        got_mean = got_var * 0
        same_sign = np.all((np.sign(rows_out) == np.sign(rows_x)) | (rows_x == 0) | (np.abs(rows_out) < 1e-300), axis=-1)
        bad = ~(np.isclose(got_var, want, rtol=1e-5, atol=VALUE_FLOOR) & same_sign)
        hint = ("Per row: divide by the square root of the mean of squares plus eps, over the last axis whatever the "
                "number of dimensions, with the eps you are given (0 included), and subtract nothing.")
        what = "mean square ms / (ms + eps) = {want:.6g} and the signs of the input, but has mean square {v:.6g}"
    if bad.any():
        i = int(np.argmax(bad))
        index = np.unravel_index(i, x.shape[:-1])
        with default_eps_told(function, args, kwargs,
                              lambda other: misses(plain, _normalized(function, x, other), RTOL, DOMAIN_ATOL)):
            fail(f"{call}: row {tuple(int(n) for n in index)} of the output should have "
                 + what.format(want=float(want[i]), m=float(got_mean[i]), v=float(got_var[i])) + ".", hint)
    return out


@pytest.mark.points(2)
def test_layer_norm_keeps_its_promises_on_every_input(student, cases):
    """For any input (1-D to 5-D, up to 200 features and 80 rows, zero, constant, tiny, huge rows, eps = 0 or not, gamma, beta): a finite float64 array of x's shape, inputs unchanged, each row with mean 0 and variance var / (var + eps), gamma and beta applied per feature."""
    cases.check(norm_inputs(LN, True), lambda case: expect_promises(student, LN, case), describe=describe_input(LN),
                explicit=[(np.array([[0.0, 0.002]]), (), {"eps": 0.0}, 0.0),
                          (np.arange(48.0).reshape(2, 2, 2, 2, 3) % 5, (), {}, 1e-5), (FAR_ROWS, (), {}, 1e-5),
                          *extreme_rows(LN), *large_cases(LN), *special_cases(LN)])


@pytest.mark.points(2)
def test_rms_norm_keeps_its_promises_on_every_input(student, cases):
    """For any input (1-D to 5-D, up to 200 features and 80 rows, zero, tiny, huge rows, eps = 0 or not, gamma): a finite float64 array of x's shape, inputs unchanged, each row with the input's signs and mean square ms / (ms + eps), gamma applied per feature."""
    cases.check(norm_inputs(RMS, False), lambda case: expect_promises(student, RMS, case),
                describe=describe_input(RMS),
                explicit=[(np.array([[3.0, 4.0]]), (), {"eps": 0.0}, 0.0),
                          # a mean square (2.5e-6) near the default eps: eps = 0 must mean no eps
                          (np.array([[0.001, -0.002]]), (0.0,), {}, 0.0),
                          (np.arange(48.0).reshape(2, 2, 2, 2, 3) % 5, (), {}, 1e-6), *extreme_rows(RMS),
                          *large_cases(RMS), *special_cases(RMS)])


def _hidden_compare(student, reference, cases, function, hint):
    def matches(case):
        x, args, kwargs, eps = case
        expected = getattr(reference, function)(x.copy(), *args, **kwargs)
        out = expect_promises(student, function, case)
        gamma, beta = _gamma_beta(case)
        atol = tolerance(function, x, eps, gamma, beta, DOMAIN_ATOL)
        with default_eps_told(function, args, kwargs, lambda other: misses(
                out, _normalized(function, x, other, gamma=gamma, beta=beta), RTOL, atol)):
            expect_array_close(out, expected, function, RTOL, atol, hint)

    cases.check(norm_inputs(function, function == LN), matches,
                explicit=[(FAR_ROWS, (), {}, 1e-5), (FAR_ROWS, (0.0,), {}, 0.0), *EPS_MATTERS,
                          (VERY_WIDE, (1e-3,), {}, 1e-3), (TALL * 0.5 - 3.0, (), {"eps": 0.1}, 0.1),
                          (OFFSET[:130] - 0.25, (), {}, DEFAULT_EPS[function]), *extreme_rows(function),
                          *special_cases(function)])
    # The same values in other memory layouts (Fortran order, a transpose), with gamma and beta.
    for x, args, kwargs, eps in LAYOUT_CASES[function]:
        expected = getattr(reference, function)(x.copy(), *args, **kwargs)
        atol = tolerance(function, x, eps, *_gamma_beta((x, args, kwargs, eps)), DOMAIN_ATOL)
        for laid_out in (fortran(x), transposed(x)):
            result = student.call(function, laid_out, *args, **kwargs)
            expect_array_close(result.value, expected, function, RTOL, atol, LAYOUT_HINT)


# Inputs sent in Fortran order and as a transpose by the hidden checks, 2-D to 4-D.
_LAYOUT_X = (_RNG.normal(size=(5, 7)) * 3.0 + 1.0, _RNG.normal(size=(3, 4, 6)) - 2.0, _RNG.normal(size=(2, 3, 2, 5)))
LAYOUT_CASES = {LN: [(_LAYOUT_X[0], (), {}, 1e-5), (_LAYOUT_X[1], (), {"gamma": _LAYOUT_X[1][0, 0] / 2,
                                                                       "beta": _LAYOUT_X[1][1, 1]}, 1e-5),
                     (_LAYOUT_X[2], (0.01,), {}, 0.01)],
                RMS: [(_LAYOUT_X[0], (), {}, 1e-6), (_LAYOUT_X[1], (), {"gamma": _LAYOUT_X[1][0, 0] / 2}, 1e-6),
                      (_LAYOUT_X[2], (0.01,), {}, 0.01)]}

# A given eps far from negligible, by keyword and by position, on 3-D and 4-D inputs: random inputs
# rarely make eps matter, so a path for some number of dimensions that drops it would pass on
# most seeds; these run on every one.
EPS_MATTERS = [(np.arange(1.0, 13.0).reshape(2, 2, 3) / 8, (), {"eps": 0.5}, 0.5),
               (np.arange(1.0, 17.0).reshape(2, 2, 2, 2) / 8, (0.25,), {}, 0.25)]


@pytest.mark.points(3)
@pytest.mark.hidden
def test_layer_norm_matches_reference_on_random_inputs(student, reference, cases):
    """On random inputs from the whole domain (1-D to 5-D, up to 200 features and 80 rows, every kind of row, eps, gamma and beta) layer_norm matches the reference."""
    _hidden_compare(student, reference, cases, LN,
                    "Normalize along the last axis for any number of dimensions, use the eps you are given, "
                    "and apply gamma and beta whenever they are given.")


@pytest.mark.points(2)
@pytest.mark.hidden
def test_rms_norm_matches_reference_on_random_inputs(student, reference, cases):
    """On random inputs from the whole domain (1-D to 5-D, up to 200 features and 80 rows, every kind of row, eps and gamma) rms_norm matches the reference."""
    _hidden_compare(student, reference, cases, RMS,
                    "Divide by the root-mean-square along the last axis for any number of dimensions, use the eps "
                    "you are given, and apply gamma whenever it is given.")
