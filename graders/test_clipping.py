"""Checks for clipping.py: clip a list of gradient arrays by their global norm, and report that norm."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder.arena import Altered
from autograder.checks import (Described, call_text, expect_real, fail, is_real_number, layout_of, relative_error, show,
                               show_pair, unchanged)

FUNCTION = "clip_by_global_norm"

VALUES_UNCHANGED_RTOL = 1e-12  # "values unchanged": multiplying by exactly 1.0 is fine, any real rescaling is not
RTOL = 1e-9  # every correct way of computing the norm agrees to a few ulps
# Clipped entries are compared relatively, each on its own, down to the smallest normal float
# (2.2e-308): every array is multiplied by the SAME factor, so an entry of 1e-300 must be its
# input times that factor as much as an entry of 1. Only inside the subnormal range, where a
# product keeps fewer digits, is a difference of at most this much forgiven.
ENTRY_FLOOR = 1e-310


def arrays(*items) -> list:
    return [np.array(item, dtype=float) for item in items]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def unpack(value, grads, call):
    """The clipped arrays and the norm from a returned pair, as leniently as the comparison allows.

    Only the structure check insists on a tuple holding a list; here any pair of (arrays, number)
    with one array per input, each of the input's shape, is read.
    """
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        fail(f"{call} returned {show(value)} ({type(value).__name__}); expected a pair (clipped, norm).",
             "The spec asks for a pair: the list of clipped arrays first, then the global norm measured before clipping.")
    first, second = value
    if is_real_number(first) or (isinstance(first, np.ndarray) and first.shape == ()):
        fail(f"{call} returned the number {show(first)} first; expected the list of clipped arrays first "
             f"and the norm second.", "Return (clipped, norm) in that order.")
    if isinstance(first, np.ndarray):
        fail(f"{call} returned one array of shape {first.shape} as the clipped gradients; expected a list of "
             f"{plural(len(grads), 'array')} with shapes {', '.join(str(g.shape) for g in grads)}.",
             "Measure all arrays together, but scale and return each one separately: do not concatenate them.")
    if not isinstance(first, (list, tuple)) or len(first) != len(grads):
        count = plural(len(first), "item") if isinstance(first, (list, tuple)) else f"a {type(first).__name__}"
        fail(f"{call} returned {count} as the clipped gradients; expected a list of {plural(len(grads), 'array')}, "
             f"one per input array.", "Return one array for every array you were given, in the same order.")
    clipped = []
    for index, (got, grad) in enumerate(zip(first, grads)):
        if not isinstance(got, np.ndarray):
            fail(f"{call} returned {show(got)} ({type(got).__name__}) as clipped array {index}; expected a numpy "
                 f"array of shape {grad.shape}.", "Scale each numpy array as a whole, e.g. grad * scale.")
        if got.shape != grad.shape:
            fail(f"{call} returned clipped array {index} with shape {got.shape}; expected shape {grad.shape}, "
                 f"the shape of input array {index}.", "Scaling an array must not reshape or flatten it.")
        if not np.issubdtype(got.dtype, np.number) or np.iscomplexobj(got):
            fail(f"{call} returned clipped array {index} of {got.dtype}; expected real numbers.")
        clipped.append(got)
    return clipped, expect_real(second, Described(lambda: f"{call} (its second item, the norm)"))


def expect_float64_arrays(clipped, call):
    """Each clipped array is float64, as the arrays given are (in either byte order)."""
    for index, got in enumerate(clipped):
        if got.dtype.kind != "f" or got.dtype.itemsize != 8:
            fail(f"{call} returned clipped array {index} of dtype {got.dtype}; expected float64, the dtype of the "
                 "arrays it was given.",
                 "Scale the float64 arrays you were given by one float (or return them as they are, or zeros like "
                 "them): an array of another dtype (integer zeros, float128, float32) changes the type of "
                 "whatever the update is applied to.")


def expect_float_norm(norm, call):
    """The norm's own type: a float (numpy float64 is one), not an int, a bool or a 0-d array."""
    if isinstance(norm, bool) or not isinstance(norm, float):
        fail(f"{call} returned the norm {show(norm)} of type {type(norm).__name__}; expected a float.",
             "The norm is one float, also when it is a whole number or 0: not an int and not a 0-d array.")


RESHAPED_HINT = ("Setting an array's shape reshapes the caller's own array: leave the arrays you were given as they "
                 "are, and reshape a copy or a view (reshape, ravel) if you need another shape.")
# The caller's list is theirs too: filling its slots anew (even with equal copies), reordering it or
# making its arrays read-only changes what they hold, which values alone would not show
# (autograder.arena.Altered).
LIST_HINT = ("Leave the list you were given exactly as it was, each array in its place and still writable: build a "
             "new list of new arrays for the result.")


def clip(student, grads, max_norm, return_args=False):
    """The student's clipped arrays and norm for one call, and the call's CallResult."""
    result = student.call(FUNCTION, grads, max_norm, return_args=return_args)
    clipped, norm = unpack(result.value, grads, call_text(FUNCTION, grads, max_norm))
    return clipped, norm, result


def first_mismatch(got: np.ndarray, want: np.ndarray, rtol: float, atol: float = 0.0):
    """Where ``got`` first differs from ``want`` beyond the tolerance (nan always differs), or None."""
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol)
    if not bad.any():
        return None
    # The worst entry, with its relative error: the first one may differ only in the last digit.
    gap = np.where(bad, np.abs(np.nan_to_num(got - want, nan=np.inf)), -1.0)
    where = tuple(int(i) for i in np.unravel_index(int(np.argmax(gap)), got.shape))
    return (f"the largest difference is at index {where}: it holds {float(got[where])!r} where "
            f"{float(want[where])!r} was expected{relative_error(float(got[where]), float(want[where]))}")


def expect_clipped(clipped, expected, call, hint, atol=0.0):
    for index, (got, want) in enumerate(zip(clipped, expected)):
        mismatch = first_mismatch(got, want, RTOL, atol)
        if mismatch:
            got_text, want_text = show_pair(got, want)
            fail(f"{call} returned clipped array {index} = {got_text}, expected {want_text}: {mismatch}.", hint)


def expect_norm(norm, expected, call, max_norm, hint=""):
    if not math.isclose(norm, expected, rel_tol=RTOL):
        fail(f"{call} reported the norm {norm!r}; expected {expected!r}.", hint or norm_hint(norm, expected, max_norm))


def length(clipped) -> float:
    """The combined length of the returned arrays (a property of the output), measured after dividing
    by the largest entry, so that entries as small as 1e-170 (whose squares underflow) count too."""
    with np.errstate(all="ignore"):
        scale = max((float(np.max(np.abs(array), initial=0.0)) for array in clipped), default=0.0)
        if scale == 0.0 or not math.isfinite(scale):
            return math.sqrt(sum(float(np.sum(np.square(array))) for array in clipped))
        return scale * math.sqrt(sum(float(np.sum(np.square(array / scale))) for array in clipped))


def expect_unchanged(student, grads, max_norm, hint):
    call = call_text(FUNCTION, grads, max_norm)
    clipped, _, _ = clip(student, grads, max_norm)
    for index, (got, grad) in enumerate(zip(clipped, grads)):
        mismatch = first_mismatch(got, grad, VALUES_UNCHANGED_RTOL)
        if mismatch:
            fail(f"{call} changed array {index} ({mismatch}); a gradient whose combined length is not above "
                 f"max_norm={max_norm!r} must come back with its values unchanged.", hint)


def expect_clipped_when_over(student, grads, hint):
    """The same arrays over a limit half their norm do change: "unchanged under the limit" is a threshold, and a
    function that never scales anything has not found it."""
    norm = true_norm(grads)
    max_norm = norm / 2
    clipped, _, _ = clip(student, grads, max_norm)
    if all(first_mismatch(got, grad, VALUES_UNCHANGED_RTOL) is None for got, grad in zip(clipped, grads)):
        fail(f"{call_text(FUNCTION, grads, max_norm)} also returned every array unchanged, although their combined "
             f"length {norm!r} is above that max_norm; leaving values unchanged counts only where the "
             "norm is not above the limit.", hint)


def norm_hint(got, expected, max_norm):
    if math.isinf(got):
        return "The sum of squares overflowed: square the entries in float64 (float32 overflows above about 1.8e19)."
    if math.isclose(got, max_norm, rel_tol=1e-6):
        return "That is the length after clipping: report the norm measured before you scaled anything."
    if expected > 0 and (math.isclose(got, max_norm / expected, rel_tol=1e-6)
                         or math.isclose(got, min(1.0, max_norm / expected), rel_tol=1e-6)):
        return "That is the scale factor; the second item is the norm itself."
    if math.isclose(got, expected ** 2, rel_tol=1e-6):
        return "That is the sum of squares: take its square root."
    return ("The global norm squares every entry of every array, adds them all up, and takes one square root: "
            "not the largest entry, not the sum of absolute values, not only the first array.")


# Norms just under the limit, by a relative 1e-5 to 5e-11 and by 10% to 0.1%: a margin on the
# comparison (clip from max_norm * (1 - 1e-7) on) or a band that "rounds up" to max_norm scales
# them up. The first is ([0.99999995], 1.0).
JUST_UNDER = [(arrays([0.99999995]), 1.0),
              *((arrays([3.0], [4.0]), 5.0 * (1 + f)) for f in (1e-5, 1e-7, 1e-8)),
              (arrays([[1.2]], [-1.6]), 2.0 * (1 + 1e-7)),
              (arrays([0.3], [0.9]), 1),  # norm 0.9487
              *((arrays([0.6], [[0.8]]), 1.0 / f) for f in (0.9, 0.99, 0.999)),
              # a hair under: 2e-9 (twice the norm's own tolerance) and 5e-11, where a clip from
              # max_norm * (1 - 1e-10) on scales the values up by 5e-11, far past any rounding
              *((arrays([3.0], [4.0]), 5.0 * (1 + f)) for f in (2e-9, 5e-11))]
# Lists of 7 to 12 arrays, each one far under the limit on its own, whose global norm is over it
# (or just under it): a norm, a test or a scaling that looks only at the first few arrays, or at
# each array's own norm, gets them wrong.
MANY_ARRAYS_ABOVE = [(arrays(*[[0.4]] * 10), 1.0),                                   # norm 1.265
                     (arrays(*[[3.0]] * 9), 1),                                      # norm 9
                     (arrays(*[[0.1]] * 6, [5.0]), 1.0),                             # the 7th holds the norm
                     (arrays(*[[0.3, -0.2], [[0.1]]] * 6), 0.9),                     # 12 arrays, norm 0.917
                     (arrays(*[[0.25 * (-1) ** i] for i in range(11)], [[0.5, 0.5]]), 0.9)]
MANY_ARRAYS_UNDER = [(arrays(*[[0.3]] * 10), 1.0),                                   # norm 0.949
                     (arrays(*[[0.1, -0.1]] * 12), 0.5),                              # norm 0.49
                     (arrays(*[[0.2]] * 9), 0.6 * (1 + 1e-7))]                       # norm 0.6 (rounded)
# Arrays of many small entries: the global norm grows with the square root of the count, so an
# array of 1000 entries of 0.05 has norm 1.58 although no entry is near the limit.
LONG_ARRAYS_ABOVE = [(arrays(np.full(1000, 0.05)), 1.0),
                     (arrays(np.full((10, 100), -0.02), np.linspace(-0.01, 0.01, 50)), 0.5),
                     (arrays(np.arange(1000.0) % 7 / 70 - 0.04), 0.8)]
# Lists holding 3-D, 4-D and 5-D arrays first, in the middle and last (size 1 too), over the limit:
# a path that leaves arrays of some rank (or some place, or some size) unscaled fails them.
HIGH_RANK_ABOVE = [
    (arrays(np.full((2, 1, 2), 1.0), [0.5], np.full((1, 2, 1, 2), -0.5), [[0.25]], np.full((1, 1, 2, 1, 2), 0.75)), 1.0),
    (arrays(np.full((1, 1, 1, 2, 1), 2.0), [[1.0, -1.0]], np.full((2, 2, 1), -1.0)), 1.5),
    (arrays([3.0], np.arange(4.0).reshape(1, 2, 2, 1) - 1.5, [[0.5]]), 2.0),
    (arrays(np.arange(8.0).reshape(2, 1, 2, 2) - 3.5, [1.0], np.full((1, 1, 1, 1, 1), 4.0)), 0.5),
    (arrays(np.ones((1, 1, 1)), [2.0, 0.0], np.full((1, 1, 1, 1), -2.0)), 1.0),
    (arrays(np.full((2, 2, 2, 2, 2), 0.5), np.full((2, 2, 2, 2), -0.25)), 1),
]
# Tiny entries with a limit far below them, and huge ones: max_norm * entry underflows (1e-150 *
# 1e-170 is a subnormal, good to 5 digits; 1e-150 * 3e-175 is 0), while max_norm / norm does not.
# The spec's entries go from 1e-150 to 1e150 and max_norm is any positive number.
EXTREME_ABOVE = [(arrays([1e-150]), 1e-170), (arrays([3e-150], [[-4e-150]]), 1e-160),
                 (arrays([1e-150, 2e-150], np.full((1, 1, 2), 2e-150)), 3e-175),
                 (arrays([1.2e150], [-1.6e150]), 1e150), (arrays([3e150], [[4e150]]), 1e-150),
                 (arrays([1e150], [1e-150]), 1e-100),
                 # mixed magnitudes: the small entries clip to 1e-300, 2e-269 and 1e-211, still normal
                 # floats and still multiplied by the one factor (not rounded to 0, not left alone)
                 (arrays([1e150], [-1e-150]), 1.0), (arrays([3e150, 2e-120], [[4e150]], [5e-100]), 50.0),
                 (arrays([[6e100], [1e-110]], [8e100]), 1)]
# Arrays of more than 4096 entries (the spec allows any shape), whose even and odd entries differ: a norm
# measured on a sample of the entries (every other one) is off, as is one that stops at some length.
BIG_ARRAYS = [(arrays(np.tile([3.0, -4.0], 2100).reshape(60, 70)), 100.0, 5.0 * math.sqrt(2100.0)),
              (arrays([1.0], np.tile([1.0, 2.0, -2.0, 0.5], 1300)), 1, math.sqrt(1.0 + 1300 * 9.25))]
LONG_ARRAYS_UNDER = [(arrays(np.full(1000, 0.01)), 1.0), (arrays(np.full((20, 50), 0.05)), 1.6)]


@pytest.mark.points(1)
def test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float(student):
    """The result is a tuple (clipped, norm): a list of one float64 array per input, each of its input's shape, then a float."""
    cases = [
        (arrays([1.0, 2.0, 3.0], [[4.0, 5.0], [6.0, 7.0]], np.zeros((2, 1, 2))), 1.0),
        (arrays([0.1, 0.2], [[0.3]]), 10.0),
        # arrays with no entries keep their own shape, clipped or not, and a list of nothing else has norm 0.0
        (arrays([3.0, 4.0], np.zeros((2, 0)), [[12.0]]), 1.0), (arrays(np.zeros(0), np.zeros((2, 0))), 1.0),
    ]
    for grads, max_norm in cases:
        value = student.call(FUNCTION, grads, max_norm).value
        call = call_text(FUNCTION, grads, max_norm)
        clipped, _ = unpack(value, grads, call)
        if not isinstance(value, tuple):
            fail(f"{call} returned a {type(value).__name__}; expected a tuple (clipped, norm).",
                 "The result is a tuple of two items (the clipped list, then the norm), not a list of two.")
        if not isinstance(value[0], list):
            fail(f"{call} returned the clipped arrays as a {type(value[0]).__name__}; expected a list.",
                 "The spec's Output is a list of arrays: not a tuple and not a generator.")
        expect_float_norm(value[1], call)
        expect_float64_arrays(clipped, call)


@pytest.mark.points(2)
def test_reports_the_global_norm_before_clipping(student):
    """The second item is the norm before clipping: the square root of the sum of the squares of all entries."""
    cases = [
        (arrays([3.0], [4.0]), 1.0, 5.0),
        (arrays([1.0, 2.0], [[2.0], [4.0]]), 2.0, 5.0),
        (arrays([[2.0, 3.0]], [[[6.0]]]), 100.0, 7.0),
        (arrays([[-1.0, 0.0], [2.0, 0.0]], [0.0, -2.0], [[[4.0]]]), 0.5, 5.0),
        # arrays of any shape: one with no entries at all adds nothing to the sum
        (arrays([3.0], np.zeros(0), [[4.0]]), 1.0, 5.0), (arrays(np.zeros((2, 0)), [[6.0, 8.0]]), 100.0, 10.0),
        # and long ones: every entry of every array counts, past 4096 entries too
        *BIG_ARRAYS,
    ]
    for grads, max_norm, expected in cases:
        _, norm, _ = clip(student, grads, max_norm)
        expect_norm(norm, expected, call_text(FUNCTION, grads, max_norm), max_norm)


@pytest.mark.points(1)
def test_three_four_clips_to_six_tenths_and_eight_tenths(student):
    """Clipped at 1, the gradient (3, 4) of length 5 becomes (0.6, 0.8), in one array or split over two."""
    hint = ("Both entries are divided by the combined length 5 of all arrays together; clip the whole vector, "
            "not each array or each entry on its own.")
    for grads, expected in ((arrays([3.0, 4.0]), arrays([0.6, 0.8])),
                            (arrays([3.0], [4.0]), arrays([0.6], [0.8]))):
        call = call_text(FUNCTION, grads, 1.0)
        clipped, norm, _ = clip(student, grads, 1.0)
        expect_clipped(clipped, expected, call, hint)
        expect_norm(norm, 5.0, call, 1.0)


@pytest.mark.points(1)
def test_an_exploding_gradient_of_length_8e46_clips_to_length_one(student):
    """Arrays [4.8e46] and [6.4e46] have norm 8e46; clipped at 1 they become [0.6] and [0.8], of combined length 1."""
    grads = arrays([4.8e46], [6.4e46])
    call = call_text(FUNCTION, grads, 1.0)
    clipped, norm, _ = clip(student, grads, 1.0)
    expect_norm(norm, 8e46, call, 1.0)
    expect_clipped(clipped, arrays([0.6], [0.8]), call,
                   "Every entry is scaled by the same tiny factor, so the combined length becomes exactly 1.")


@pytest.mark.points(2)
def test_above_the_limit_the_combined_length_becomes_max_norm(student):
    """When the norm is above max_norm, the returned arrays together have length exactly max_norm (an int limit too), however many arrays (up to 12) and entries (up to 1000) there are, whatever their ranks (1-D to 5-D), however small each one is, and however tiny or huge the entries and max_norm (1e-170 to 1e150)."""
    mixed = arrays([0.5, -1.5, 2.0], [[1.0, -2.0], [0.25, 3.0]], [[[1.5, 0.0, -0.5]], [[2.5, 1.0, -1.0]]])
    # The tiny case catches an epsilon added to the norm: invisible at norm 1, 0.02% off at norm 5e-9.
    # Two have a norm only 2e-8 and 2e-9 above the limit: a threshold (clip past max_norm * (1 + 1e-6), or
    # past max_norm * (1 + 1e-8) for the second) leaves them, and their length is then off by more than the
    # 1e-9 a norm may be.
    cases = [(mixed, 2), (mixed, 0.5), (arrays([10.0, -20.0, 5.0], [[-7.5]]), 3.7), (arrays([3e-9], [4e-9]), 1e-9),
             (arrays([3.0], [4.0]), 4.9999999), (arrays([3.0], [4.0]), 4.99999999), *MANY_ARRAYS_ABOVE, *LONG_ARRAYS_ABOVE, *HIGH_RANK_ABOVE,
             *EXTREME_ABOVE]
    for grads, max_norm in cases:
        clipped, _, _ = clip(student, grads, max_norm)
        got = length(clipped)
        if not math.isclose(got, max_norm, rel_tol=RTOL):
            fail(f"{call_text(FUNCTION, grads, max_norm)} returned arrays of combined length {got!r}; expected "
                 f"{float(max_norm)!r}.",
                 "Multiply every array by max_norm / norm, with norm the length of all arrays together (no epsilon "
                 "added), so that the result has length max_norm exactly.")


TINY_HINT = ("Every entry is multiplied by the same factor max_norm / norm, however small the product: 1e-150 "
             "times 1e-150 is 1e-300, a float like any other, so keep it as it comes out (not 0, not changed).")


def tiny_products(grads, max_norm) -> bool:
    """Whether clipping makes some nonzero entry smaller than 1e-200 (a case for TINY_HINT)."""
    factor = max_norm / true_norm(grads)
    return any(0 < float(np.min(np.abs(g[g != 0]), initial=np.inf)) * factor < 1e-200 for g in grads)


@pytest.mark.points(2)
def test_every_array_is_scaled_by_the_same_factor(student):
    """Clipping above the limit keeps the direction: every array is its input times one common positive factor below 1, whatever its rank (1-D to 5-D) and place in the list."""
    cases = [
        (arrays([[3.0, 0.0], [0.0, 4.0]], [0.5, -0.5, 0.5, -0.5], [[[1.0, -1.0, 2.0]], [[0.0, 1.0, -1.0]]]), 2.0),
        (arrays([0.1, 0.2], [[30.0, -40.0]]), 10.0),
        *HIGH_RANK_ABOVE,  # 3-D, 4-D and 5-D arrays first, in the middle and last
        *EXTREME_ABOVE[-3:],  # huge and tiny entries together: the tiny ones are scaled by the same factor
    ]
    for grads, max_norm in cases:
        call = call_text(FUNCTION, grads, max_norm)
        clipped, _, _ = clip(student, grads, max_norm)
        factors = []
        for index, (got, grad) in enumerate(zip(clipped, grads)):
            # measured on both arrays divided by the input's largest entry, so that tiny entries count
            # too (the square of 1e-300 underflows); each entry is then compared relatively
            top = float(np.max(np.abs(grad)))
            if top == 0.0:  # an all-zero array stays zeros, whatever the factor
                if np.any(got != 0):
                    fail(f"{call} returned {show(got)} for the all-zero input array {index}; expected zeros.",
                         "Scale whole arrays by one number: zeros times any factor stay zeros.")
                continue
            with np.errstate(all="ignore"):
                factor = float(np.sum((got / top) * (grad / top)) / np.sum(np.square(grad / top)))
            if not np.allclose(got, factor * grad, rtol=RTOL, atol=ENTRY_FLOOR):
                fail(f"{call} returned {show(got)} for input array {index} {show(grad)}, which is not a multiple "
                     f"of it: its direction changed.",
                     TINY_HINT if tiny_products(grads, max_norm) else
                     "Scale whole arrays by one number; do not clip individual entries to [-max_norm, max_norm].")
            factors.append(factor)
        if not np.allclose(factors, factors[0], rtol=RTOL, atol=0.0):
            listed = ", ".join(f"{f:.6g}" for f in factors)
            fail(f"{call} scaled the arrays by different factors ({listed}); expected one common factor.",
                 TINY_HINT if tiny_products(grads, max_norm) else
                 "Clip by the global norm of all arrays together, not each array by its own norm.")
        if factors[0] <= 0:
            fail(f"{call} multiplied the arrays by {factors[0]:.6g}; the factor must be positive.",
                 "Clipping shrinks the gradient but keeps its sign and direction.")
        if math.isclose(factors[0], 1.0, rel_tol=RTOL):  # every case here is over its limit
            fail(f"{call} returned the arrays unscaled, although their combined length {true_norm(grads)!r} is above "
                 f"max_norm={max_norm!r}; expected them all scaled down by one common factor.",
                 "Above the limit every array is multiplied by the same factor, max_norm / norm, which is below 1.")


@pytest.mark.points(2)
def test_under_the_limit_the_values_are_unchanged(student):
    """When the norm is below max_norm every array comes back unchanged, however close below (5e-11 relative) and however many arrays, while the same arrays over a lower limit are scaled: gradients are never scaled up."""
    hint = ("Scale only when the norm is above max_norm, and then by the one factor that brings the combined "
            "length down to max_norm; the factor is never above 1.")
    expect_unchanged(student, arrays([[0.1, -0.2], [0.3, 0.4]], [0.5]), 1.0, hint)
    expect_unchanged(student, arrays([3.0, 4.0]), 10.0, hint)
    expect_unchanged(student, arrays([[[0.25]], [[-0.5]]], [1.5, -2.0]), 3.5, hint)
    # max_norm may be any positive number: its square overflows a float past 1.3e154 (and ** raises)
    expect_unchanged(student, arrays([3.0, 4.0]), 1e200, hint)
    expect_unchanged(student, arrays([1e150], [[-2e150, 3e149]]), 1.7e308, hint)
    for grads, max_norm in JUST_UNDER + MANY_ARRAYS_UNDER + LONG_ARRAYS_UNDER:
        expect_unchanged(student, grads, max_norm, hint)
    expect_clipped_when_over(student, arrays([3.0, 4.0]), hint)


@pytest.mark.points(1)
def test_exactly_at_the_limit_the_values_are_unchanged(student):
    """When the norm equals max_norm exactly (5 for (3, 4) at 5) the values are unchanged, while the same arrays over a lower limit are scaled."""
    hint = ("At norm == max_norm the factor max_norm / norm is exactly 1; an epsilon added to the norm "
            "(norm + 1e-6) shrinks gradients that needed no clipping.")
    expect_unchanged(student, arrays([3.0, 4.0]), 5.0, hint)
    expect_unchanged(student, arrays([2.0, 3.0], [[6.0]]), 7, hint)
    expect_unchanged(student, arrays([[1.0, 2.0]], [[[2.0]]]), 3.0, hint)
    expect_clipped_when_over(student, arrays([2.0, 3.0], [[6.0]]), hint)


@pytest.mark.points(2)
def test_the_input_arrays_are_not_modified(student):
    """The list passed in keeps its own arrays in their places, and they hold the same values after the call, whether or not clipping happened; once clipped, the result is new arrays, none of them the caller's."""
    cases = [
        (arrays([3.0, 4.0], [[1.0, -2.0], [0.5, 2.5]]), 1.0),
        (arrays([[[0.2, -0.1]]], [0.3]), 2.0),
        # negative zeros, over and under the limit: made 0.0 in place, they still compare equal with ==
        (arrays([-0.0, 3.0, -0.0, 4.0], [[-0.0]]), 1.0),
        (arrays([-0.0, 0.5], [[0.25, -0.0]]), 2.0),
        # gradients that are all zero (norm 0.0), negative zeros among them: zeros written into them show
        (arrays([0.0, -0.0], [[-0.0, -0.0]]), 1.0),
        # clipped beside an all-zero array: scaling leaves its values as they are, but it is the caller's
        (arrays([3.0, 4.0], [[0.0, -0.0]], np.zeros((2, 0))), 1.0),
        # arrays with no entries, clipped and not: their shape is part of what the caller handed in
        (arrays([3.0, 4.0], np.zeros((2, 0))), 1.0), (arrays(np.zeros((2, 0)), [0.5]), 2.0),
        # Fortran-ordered and transposed arrays (the spec names both), clipped and not: they reach the
        # function laid out as they are, so an edit made only where an array is not C-contiguous shows
        (in_fortran_order(arrays([[3.0, 4.0], [1.0, -2.0]], [0.5])), 1.0),
        ([np.arange(6.0).reshape(2, 3).T / 10 - 0.2, np.array([0.1])], 10.0),
    ]
    for grads, max_norm in cases:
        call = call_text(FUNCTION, grads, max_norm)
        _, _, result = clip(student, grads, max_norm, return_args=True)
        after = result.args_after[0]
        if not isinstance(after, list) or len(after) != len(grads):
            fail(f"After {call} the list passed in held {show(after)}; it must keep its {len(grads)} arrays.",
                 "Build a new list for the result instead of changing the one you were given.")
        for index, (now, before) in enumerate(zip(after, grads)):
            if isinstance(now, Altered):
                fail(f"After {call} the list passed in held {now} at index {index}, where it held {show(before)}: "
                     "the caller's list and arrays must come back as they were.", LIST_HINT)
            if not unchanged(now, before):
                fail(f"After {call} input array {index}{layout_of(before)} held {show(now)}; before the call it was "
                     f"{show(before)}.", RESHAPED_HINT if isinstance(now, np.ndarray) and now.shape != before.shape
                     else "Do not scale the arrays you were given in place: the caller still needs the raw gradients, "
                     "so build new arrays.")
        handed_back = [index for index, grad in enumerate(grads) if any(grad is a for a in result.handed_back)]
        if handed_back and true_norm(grads) > max_norm:
            fail(f"{call} clipped the gradients, and its result holds input array {handed_back[0]} itself, the "
                 "caller's own array, not a new one.",
                 "Once the norm is above max_norm, build a new array for every input, those whose values scaling "
                 "leaves as they are included: the inputs themselves may come back only when nothing is clipped.")


# The same values in another memory layout: arrays of two or more dimensions stored column by
# column (Fortran order), as a transposed array is. Code that walks an array in memory order
# (ravel(order='K')), or writes into a reshape that had to copy, scrambles or loses them.
LAYOUT_CASES = [(arrays([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 1.0),                                 # clipped
                (arrays([[3.0, -1.0], [0.5, 2.0]], np.arange(24.0).reshape(2, 3, 4) / 10 - 1.1, [0.5, 1.5]), 2.0),
                (arrays([0.25, -0.5], np.arange(12.0).reshape(3, 2, 2) / 4 - 1.3, [[6.0, -2.0, 1.0]]), 1),
                (arrays([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], [[0.0, -0.1]]), 10.0),                  # unchanged
                (arrays(np.arange(6.0).reshape(1, 2, 3) / 10), 5.0)]
LAYOUT_HINT = ("The arrays may be stored in any memory layout (a transposed array holds its columns one after "
               "another): scale each array as a whole (grad * scale), never by walking it in memory order or by "
               "writing into a reshaped view that may be a copy.")


def in_fortran_order(grads) -> list:
    """The same values, every array of two or more dimensions stored in Fortran (column-major) order."""
    return [np.asfortranarray(g) if g.ndim > 1 else g for g in grads]


@pytest.mark.points(1)
def test_arrays_in_any_memory_layout_are_clipped_alike(student):
    """Arrays stored in another memory layout (a transposed array, Fortran order) hold the same numbers: they are clipped, or kept, exactly as the same values in numpy's default order."""
    for grads, max_norm in LAYOUT_CASES:
        norm = true_norm(grads)
        expected = [g * (max_norm / norm) for g in grads] if norm > max_norm else grads
        clipped, got_norm, _ = clip(student, in_fortran_order(grads), max_norm)
        call = f"{call_text(FUNCTION, grads, max_norm)} with its arrays of 2 or more dimensions in Fortran order"
        expect_norm(got_norm, norm, call, max_norm)
        expect_clipped(clipped, expected, call, LAYOUT_HINT)


@pytest.mark.points(1)
def test_all_zero_gradients_return_zeros_without_warning(student):
    """All-zero gradients come back as zeros with norm 0.0: no division by zero, no nan, no warning."""
    hint = "The norm is 0, so no clipping is needed: compare with max_norm before dividing by the norm."
    for grads, max_norm in ((arrays(np.zeros(3), np.zeros((2, 2))), 1.0), (arrays(np.zeros((2, 3, 1))), 5)):
        call = call_text(FUNCTION, grads, max_norm)
        clipped, norm, result = clip(student, grads, max_norm)
        if norm != 0.0:
            fail(f"{call} reported the norm {norm!r}; expected 0.0.", hint)
        expect_float_norm(result.value[1], call)
        for index, got in enumerate(clipped):
            if np.any(got != 0):
                fail(f"{call} returned {show(got)} as clipped array {index}; expected zeros.", hint)
        expect_float64_arrays(clipped, call)
        if result.warnings:
            fail(f"{call} raised a warning: {result.warnings[0]}.", hint)


# --- the input domain, clause by clause from the spec -----------------------------------------
# grads: a non-empty list of float arrays "of any shapes": 1 to 6 arrays of rank 1 to 5, or 7 to
# 16 small ones (many arrays, each far under the limit, can be over it together), each all zero
# or holding values at one magnitude from 1e-150 to 1e150 (squares and their sum stay finite
# and normal); now and then a long array of 100 to 1000 entries (the hidden check: up to 6000),
# constant or not (many small entries make a large norm). max_norm: a positive number, int or
# float: exactly the norm (the boundary), one ulp either side, just above or below it (a relative
# 1e-5 to 1e-8, or 0.1% to 10%: the norm is then just under the limit), a factor of it from 1e-6
# to 1e6, or a fixed limit.
MAGNITUDES = (-150, -100, -30, -8, -3, 0, 3, 8, 30, 100, 150)


LONG_SHAPES = ((1000,), (100,), (10, 30), (200,), (4, 5, 20))
# The hidden check's long arrays also go past 4096 entries (any shape is allowed; up to 6000 here).
HIDDEN_LONG_SHAPES = LONG_SHAPES + ((4100,), (6000,), (70, 64), (3, 40, 41))


@st.composite
def gradient(draw, small: bool = False, long_shapes=LONG_SHAPES):
    if not small and draw(st.integers(0, 24)) == 0:
        # a long array: drawn from a seed, not entry by entry (Hypothesis draws would be too costly)
        shape = draw(st.sampled_from(long_shapes))
        rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
        scale = 10.0 ** draw(st.sampled_from(MAGNITUDES))
        if draw(st.booleans()):
            return np.full(shape, draw(st.integers(-1000, 1000)) * scale / 8.0)
        return rng.integers(-1000, 1001, size=shape).astype(float) * scale / 8.0
    rank = draw(st.sampled_from((1, 1, 2, 2) if small else (1, 1, 2, 2, 3, 4, 5)))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    if draw(st.integers(0, 5)) == 0:
        return np.zeros(shape)
    size = math.prod(shape)
    ints = np.array(draw(st.lists(st.integers(-1000, 1000), min_size=size, max_size=size)), dtype=float)
    return ints.reshape(shape) * 10.0 ** draw(st.sampled_from(MAGNITUDES)) / 8.0


def true_norm(grads) -> float:
    return math.sqrt(math.fsum(np.concatenate([np.square(g, dtype=float).ravel() for g in grads]).tolist()))


@st.composite
def clip_calls(draw, long_shapes=LONG_SHAPES):
    """(grads, max_norm): one call from the contract's whole domain."""
    few = st.lists(gradient(long_shapes=long_shapes), min_size=1, max_size=6)
    grads = draw(st.one_of(few, few, st.lists(gradient(small=True), min_size=7, max_size=16)))
    norm = true_norm(grads)
    fixed = st.sampled_from((1, 1.0, 0.5, 5, 3.7, 1e-9, 1e9))
    if norm == 0.0:
        return grads, draw(fixed)
    relative = st.one_of(
        st.just(norm), st.just(math.nextafter(norm, math.inf)), st.just(math.nextafter(norm, 0.0)),
        # just under the norm too: clipping has no threshold, however close above the limit the norm is
        st.sampled_from((1e-6, 0.01, 0.5, 0.999, 1.001, 2.0, 100.0, 1e6, 1 - 1e-5, 1 - 1e-7, 1 - 1e-8, 1 - 2e-9,
                         1e-20, 1e-60, 1e-100))
        .map(lambda f: norm * f),
        # and just over the norm: nothing under the limit is scaled, however close to it
        st.sampled_from((1 + 1e-5, 1 + 1e-7, 1 + 1e-8, 1 + 2e-9, 1 + 5e-11, 1 / 0.9, 1 / 0.95, 1 / 0.99, 1 / 0.999))
        .map(lambda f: norm * f),
        st.floats(0.05, 20.0).map(lambda f: norm * f))
    max_norm = draw(st.one_of(relative, relative, fixed))
    if max_norm >= 2 and draw(st.integers(0, 4)) == 0:
        max_norm = int(max_norm)  # an int limit, as the spec allows
    return grads, max_norm


def describe(case) -> str:
    grads, max_norm = case
    return f"{call_text(FUNCTION, grads, max_norm)} with grads = [{', '.join(show(g, 60) for g in grads)}]"


def expect_promises(student, case):
    """Every promise for any input: a tuple (list of same-shaped float64 arrays, float norm), inputs left as
    they were, the norm before clipping, and the clipped length: max_norm above it, unchanged below."""
    grads, max_norm = case
    shown = ([np.array(g, copy=True) for g in grads], max_norm)  # as at the call
    call = Described(lambda: describe(shown))
    result = student.call(FUNCTION, [g.copy(order="K") for g in grads], max_norm, return_args=True)
    clipped, norm = unpack(result.value, grads, call)
    value = result.value
    if not isinstance(value, tuple) or not isinstance(value[0], list):
        fail(f"{call} returned a {type(value).__name__} holding a {type(value[0]).__name__}; expected a tuple "
             "(clipped, norm) whose first item is a list.", "The result is a tuple of two items whose first item is a list of arrays, one per input array.")
    if isinstance(value[1], bool) or not isinstance(value[1], float):
        fail(f"{call} returned the norm {value[1]!r} of type {type(value[1]).__name__}; expected a float.",
             "Return the norm as a Python float on every path, all-zero gradients included (the spec's Output says "
             "so); a numpy result that is an array is not a float.")
    after = result.args_after[0]
    # One message and hint for every way the inputs changed: the hidden check reads this too, and
    # which way is the student's code's to choose, on inputs it must not learn about.
    if not isinstance(after, list) or len(after) != len(grads) or not all(
            unchanged(now, was) for now, was in zip(after, grads)):
        fail(f"{call} changed the list or the arrays it was given.",
             "Leave the list you were given and its arrays exactly as they were (nothing scaled in place, no array "
             "put into the list, none made read-only): the spec asks for a new list of new arrays.")
    expected_norm = true_norm(grads)
    if not math.isclose(norm, expected_norm, rel_tol=RTOL):
        fail(f"{call} reported the norm {norm!r}; expected {expected_norm!r}.", norm_hint(norm, expected_norm, max_norm))
    if not all(np.all(np.isfinite(got)) for got in clipped):
        fail(f"{call} returned arrays holding nan or inf.", "Divide by the norm only when it is above max_norm.")
    expect_float64_arrays(clipped, call)
    if expected_norm > max_norm:
        got = length(clipped)
        if not math.isclose(got, max_norm, rel_tol=RTOL):
            fail(f"{call} returned arrays of combined length {got!r}; expected {float(max_norm)!r}.",
                 "Multiply every array by max_norm / norm, with norm the length of all arrays together (no "
                 "epsilon, no threshold on small norms), so that the result has length max_norm exactly.")
        factor = max_norm / expected_norm
        expect_clipped(clipped, [g * factor for g in grads], call,
                       "Scale every array by the same factor max_norm / norm, keeping its direction: every entry, "
                       "however tiny it becomes, is its input times that factor (no entry is rounded to 0).",
                       atol=ENTRY_FLOOR)
    else:
        for index, (got, grad) in enumerate(zip(clipped, grads)):
            mismatch = first_mismatch(got, grad, VALUES_UNCHANGED_RTOL)
            if mismatch:
                fail(f"{call} changed array {index} ({mismatch}); at or below max_norm the values stay as they "
                     "were.", "Scale only when the norm is above max_norm (not at it, and never up).")
    if expected_norm == 0.0 and result.warnings:
        fail(f"{call} raised a warning: {result.warnings[0]}.",
             "The norm is 0, so no clipping is needed: compare with max_norm before dividing by the norm.")
    return clipped, norm


@pytest.mark.points(2)
def test_keeps_every_promise_on_every_input(student, cases):
    """For any list of arrays (1 to 16 arrays, ranks 1 to 5, up to 1000 entries, zeros, tiny and huge values) and any positive max_norm (the boundary and norms just under it included): a tuple (list, float), inputs unchanged, the norm before clipping, length max_norm above it, values unchanged otherwise (nothing is ever scaled up)."""
    cases.check(clip_calls(), lambda case: expect_promises(student, case), describe=describe,
                explicit=[(arrays(np.zeros(3)), 1.0), (arrays([3e-150], [4e-150]), 1e-150),
                          (arrays([4.8e46], [6.4e46]), 1), JUST_UNDER[0], JUST_UNDER[5], MANY_ARRAYS_ABOVE[0],
                          MANY_ARRAYS_ABOVE[1], LONG_ARRAYS_ABOVE[0], *HIGH_RANK_ABOVE, *EXTREME_ABOVE])


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_gradients(student, reference, cases):
    """On random lists of arrays and limits from the whole domain (many arrays, long arrays, norms just under the limit) the result matches the reference."""
    hint = "Measure all arrays together in float64; scale every array by max_norm / norm only when norm > max_norm."

    def matches(case):
        grads, max_norm = case
        expected, expected_norm = reference.clip_by_global_norm([g.copy() for g in grads], max_norm)
        clipped, got_norm = expect_promises(student, case)
        call = call_text(FUNCTION, grads, max_norm)
        expect_norm(got_norm, expected_norm, call, max_norm, hint)
        atol = ENTRY_FLOOR
        expect_clipped(clipped, expected, call, hint, atol=atol)
        if any(g.ndim > 1 for g in grads):  # and the same values in another memory layout
            clipped, got_norm, _ = clip(student, in_fortran_order(grads), max_norm)
            expect_norm(got_norm, expected_norm, call, max_norm, LAYOUT_HINT)
            expect_clipped(clipped, expected, call, LAYOUT_HINT, atol=atol)

    cases.check(clip_calls(HIDDEN_LONG_SHAPES), matches, explicit=[
        (arrays(*[[0.35, -0.1]] * 11), 1.0), (arrays(*[[0.5]] * 8, [[0.5]]), 1.0),
        (arrays(np.full((25, 40), 0.04)), 1.0), (arrays([0.7], [0.7]), 1.0 + 1e-6), *HIGH_RANK_ABOVE,
        *EXTREME_ABOVE, *((grads, max_norm) for grads, max_norm, _ in BIG_ARRAYS),
        # on every seed, not only where a draw lands within 1e-7 under the limit
        *JUST_UNDER])


# The plot in the HTML report: the public cases' norms before and after clipping, both divided by
# max_norm, so every case sits on one curve: after = min(before, max_norm).
from autograder.figures import Curve, PlotSpec  # noqa: E402

_PLOT_CASES = ((arrays([3.0], [4.0]), 1.0), (arrays([1.0, 2.0], [[2.0], [4.0]]), 2.0),
               (arrays([[2.0, 3.0]], [[[6.0]]]), 100.0), (arrays([0.1, 0.2], [[30.0, -40.0]]), 10.0),
               (arrays([3.0, 4.0]), 10.0), (arrays([3.0, 4.0]), 5.0), (arrays([3e-9], [4e-9]), 1e-9),
               (arrays([10.0, -20.0, 5.0], [[-7.5]]), 3.7), (arrays([[0.1, -0.2], [0.3, 0.4]], [0.5]), 1.0))


def _global_norm(grads):
    return math.sqrt(sum(float(np.sum(np.square(g))) for g in grads))


def _plot_after(value, args):
    clipped = value[0] if isinstance(value, (tuple, list)) and len(value) == 2 else None
    if not isinstance(clipped, (list, tuple)) or not all(isinstance(a, np.ndarray) for a in clipped):
        return [None]
    return [_global_norm(clipped) / args[1]]


_BEFORE = tuple(_global_norm(grads) / max_norm for grads, max_norm in _PLOT_CASES)
_ORDER = sorted(range(len(_PLOT_CASES)), key=_BEFORE.__getitem__)
PLOTS = (PlotSpec("Global norm after clipping against before, as multiples of max_norm", FUNCTION,
                  "norm before ÷ max_norm", "norm after ÷ max_norm", (
                      Curve("public cases", tuple((_PLOT_CASES[i], {}) for i in _ORDER),
                            tuple(_BEFORE[i] for i in _ORDER), tuple(min(_BEFORE[i], 1.0) for i in _ORDER),
                            _plot_after),), log_x=True, guides=(("max_norm", 1.0),)),)
