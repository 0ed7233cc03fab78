"""Checks for residual.py: the gradient is the product of depth factors, 1 + block_slope with skips, block_slope without."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder.checks import call_text, expect_real, fail

FUNCTION = "residual_chain_gradient"
RTOL = 1e-9

TEN_WITH_SKIPS = 1.2800845441963566  # 1.025 ** 10
TEN_WITHOUT_SKIPS = 9.536743164062505e-17  # 0.025 ** 10

COMPOUND_HINT = ("Every block multiplies the gradient by its own factor, so the factors compound, with the skip path "
                 "counted in every block's factor.")


def expect_gradient(student, args, kwargs, expected, hint, clues=()):
    """One call must come within RTOL of `expected`; a known wrong value gets its own hint."""
    call = call_text(FUNCTION, *args, **kwargs)
    got = expect_real(student.call(FUNCTION, *args, **kwargs).value, call)
    if not np.isclose(got, expected, rtol=RTOL, atol=0.0):
        hint = next((why for wrong, why in clues if np.isclose(got, wrong, rtol=1e-6, atol=0.0)), hint)
        fail(f"{call} returned {got!r}; expected {expected!r}.", hint)


@pytest.mark.points(2)
def test_ten_residual_blocks_keep_1_28(student):
    """Ten blocks of slope 0.025 with skip connections pass back 1.025 ** 10 = 1.28 of the gradient."""
    clues = (
        (1.0, "That adds the skip path once, after the chain; every block has its own skip, so it belongs in every "
              "block's factor."),
        (1.25, "That adds the slopes up; the per-block factors multiply, so they compound."),
        (TEN_WITHOUT_SKIPS, "That is the chain without skips; with the skip connection each block's factor also "
                            "counts the path around the block."),
    )
    expect_gradient(student, (10, 0.025), {"residual": True}, TEN_WITH_SKIPS, COMPOUND_HINT, clues)
    expect_gradient(student, (10, 0.025, True), {}, TEN_WITH_SKIPS,
                    "Keep the stub's signature: residual is the third parameter and may be passed by position.", clues)


@pytest.mark.points(2)
def test_ten_plain_blocks_vanish(student):
    """Without skip connections the same ten blocks pass back only 0.025 ** 10, about 9.5e-17."""
    clues = ((TEN_WITH_SKIPS, "That is the chain with skips; without the skip connection each block's factor is its "
                              "slope alone."),)
    expect_gradient(student, (10, 0.025), {"residual": False}, TEN_WITHOUT_SKIPS, COMPOUND_HINT, clues)
    expect_gradient(student, (10, 0.025, False), {}, TEN_WITHOUT_SKIPS,
                    "Keep the stub's signature: residual is the third parameter and may be passed by position.", clues)


@pytest.mark.points(1)
def test_skip_path_is_the_default(student):
    """Called without the third argument, the blocks have skip connections (residual defaults to True)."""
    hint = "Keep the stub's signature: leaving the residual argument out means the skip path is there."
    expect_gradient(student, (10, 0.025), {}, TEN_WITH_SKIPS, hint)
    expect_gradient(student, (3, -0.5), {}, 0.125, hint)


@pytest.mark.points(1)
def test_one_block_multiplies_once(student):
    """A single block multiplies the gradient once: by 1 + block_slope with the skip, by block_slope without."""
    hint = "With depth 1 there is exactly one factor; check that the loop or the power uses depth itself."
    for slope, with_skip in ((0.025, 1.025), (3.0, 4.0), (-0.5, 0.5)):
        expect_gradient(student, (1, slope), {"residual": True}, with_skip, hint)
        expect_gradient(student, (1, slope), {"residual": False}, slope, hint)


@pytest.mark.points(1)
def test_zero_blocks_leave_the_gradient_at_one(student):
    """With no blocks the gradient passes through untouched: 1.0 for every slope, with or without skips."""
    hint = "An empty product is 1: with depth 0 there is no factor at all, so the result is 1.0."
    for slope in (0.025, 0.0, -0.5, 2.0, -1.0, -2.0, -3.0, 1.0, -0.0):
        for residual in (True, False):
            expect_gradient(student, (0, slope), {"residual": residual}, 1.0, hint)


@pytest.mark.points(1)
def test_zero_and_negative_slopes(student):
    """Any slope works: a zero factor kills the gradient, and a negative one flips its sign at every block."""
    hint = ("Multiply the factors themselves: a zero factor gives 0.0 and a negative one flips the sign, so do not "
            "drop the sign or go through logarithms, which fail for factors of 0 or below.")
    cases = (((5, 0.0, False), 0.0), ((5, 0.0, True), 1.0), ((3, -0.5, False), -0.125), ((4, -0.5, False), 0.0625),
             ((3, -0.5, True), 0.125), ((3, -3.0, True), -8.0), ((2, -1.0, True), 0.0),
             # factors of 0 and -1 at every depth: 1.0 with no blocks, and the parity decides the sign
             ((0, -1.0, True), 1.0), ((1, -1.0, True), 0.0), ((0, 0.0, False), 1.0), ((1, 0.0, False), 0.0),
             ((0, -2.0, True), 1.0), ((1, -2.0, True), -1.0), ((2, -2.0, True), 1.0), ((3, -2.0, True), -1.0),
             ((1000, -2.0, True), 1.0), ((999, -2.0, True), -1.0), ((0, -1.0, False), 1.0),
             ((2, -1.0, False), 1.0), ((3, -1.0, False), -1.0), ((1000, -1.0, False), 1.0))
    for (depth, slope, residual), expected in cases:
        expect_gradient(student, (depth, slope), {"residual": residual}, expected, hint)


@pytest.mark.points(1)
def test_factors_compound_not_add(student):
    """Factors multiply, so they compound: ten blocks of slope 0.5 with skips give 1.5 ** 10 = 57.67, not 1 + 10 * 0.5."""
    # Small slopes too, where "1 + depth * slope" (or any other shortcut for small slopes) is
    # close but not the product: 1.01 ** 100 is 2.705, not 2.
    cases = (((10, 0.5, True), 57.6650390625), ((10, 1.0, True), 1024.0), ((4, 2.0, False), 16.0),
             ((6, -2.0, False), 64.0), ((100, 0.01, True), 2.7048138294215285),
             ((10, 0.02, True), 1.2189944199947573), ((50, -0.01, True), 0.6050060671375364),
             ((1000, 5e-05, True), 1.051269782331887))
    for (depth, slope, residual), expected in cases:
        added = 1.0 + depth * slope if residual else depth * slope
        clues = ((added, "That adds the slopes up; however small they are, the per-block factors multiply, so they "
                         "compound."),)
        expect_gradient(student, (depth, slope), {"residual": residual}, expected, COMPOUND_HINT, clues)


# --- the input domain, clause by clause from the spec -----------------------------------------
# block_slope: "any finite float, including 0.0 and negative values": the edges (a factor of 0,
# -1 or 1, tiny slopes whose factor rounds to 1, huge ones), ordinary slopes, every finite float.
EDGE_SLOPES = (0.0, -0.0, -1.0, -2.0, 1.0, -0.5, 0.025, -1.5, -3.0, 2.0, 1e-12, -1e-12, 1e-300, -1e-300, 5e-324,
               1e-8, 1e100, -1e100, 0.5,
               # small slopes over deep stacks, where a shortcut such as 1 + depth * slope is near but wrong
               0.01, -0.01, 0.02, 0.001, -0.003, 1e-4, -5e-5, 1e-5, -2e-6, 3e-7, 5e-8)
# Large slopes (100 to 1e9, either sign), where "1 +" is still far above the 1e-9 tolerance,
# and small ones (1e-7 to 1e-3), where a truncated series for the power is near but wrong over a
# deep stack.
LARGE_SLOPES = st.tuples(st.floats(2.0, 9.0), st.booleans()).map(lambda c: -10.0 ** c[0] if c[1] else 10.0 ** c[0])
SMALL_SLOPES = st.tuples(st.floats(-7.0, -3.0), st.booleans()).map(lambda c: -10.0 ** c[0] if c[1] else 10.0 ** c[0])
SLOPES = st.one_of(st.sampled_from(EDGE_SLOPES), st.floats(-3.0, 3.0),
                   st.floats(allow_nan=False, allow_infinity=False), LARGE_SLOPES, SMALL_SLOPES)
# How residual is passed: omitted (the default, True), by position, or by its keyword.
STYLES = ("default", "position", "keyword")
# Depths past 32767 (an int16 depth wraps there), as deep as a block-by-block loop stays quick.
MAX_DEPTH = 100_000


def _deepest(factor: float) -> int:
    """The largest depth (up to MAX_DEPTH) whose product stays between 1e-290 and 1e290 (or is
    exactly 0), so that a block-by-block loop and a single power agree to 1e-9 and neither overflows."""
    size = abs(factor)
    if size == 0.0 or size == 1.0:
        return MAX_DEPTH
    return max(0, min(MAX_DEPTH, int(290 / abs(math.log10(size)))))


@st.composite
def products_in_range(draw, residual: bool):
    """(depth, slope) drawn product first: anywhere from 1e-285 to 1e285 in size, reached over any
    depth, so a deep stack of tiny or huge factors whose product is still in range is as likely as
    any (a shortcut for "small factor, many blocks" shows there)."""
    depth = draw(st.one_of(st.integers(2, 64), st.integers(2, 3000), st.integers(2, MAX_DEPTH)))
    size = 10.0 ** (draw(st.floats(-285.0, 285.0)) / depth)
    factor = -size if draw(st.booleans()) else size
    slope = factor - 1.0 if residual else factor
    return min(depth, _deepest(1.0 + slope if residual else slope)), slope


@st.composite
def stacks(draw):
    """(args, kwargs, depth, slope, residual): one call from the contract's whole domain."""
    residual = draw(st.booleans())
    if draw(st.integers(0, 4)) == 0:
        depth, slope = draw(products_in_range(residual))
    else:
        slope = draw(SLOPES)
        deepest = _deepest(1.0 + slope if residual else slope)
        depths = [st.sampled_from((0, 1, 2, 3)).map(lambda d: min(d, deepest)), st.integers(0, min(64, deepest)),
                  st.integers(0, min(3000, deepest)), st.integers(0, deepest), st.just(deepest)]
        if deepest > 32767:
            depths.append(st.integers(32768, deepest))
        depth = draw(st.one_of(*depths))
    style = draw(st.sampled_from(STYLES if residual else STYLES[1:]))
    if style == "default":
        return (depth, slope), {}, depth, slope, residual
    if style == "position":
        return (depth, slope, residual), {}, depth, slope, residual
    return (depth, slope), {"residual": residual}, depth, slope, residual


def describe(case) -> str:
    return call_text(FUNCTION, *case[0], **case[1])


def _fixed(depth, slope, residual=True):
    return (depth, slope), {"residual": residual}, depth, slope, residual


# On every seed: large slopes with the skip (1 + slope is not slope), deep stacks past 32767
# blocks (and past 100,000, up to 250,000: deep enough for a limit on depth to show, shallow enough
# that a loop printing every block stays far inside the time limit), small slopes over stacks deep enough that a
# truncated series misses by far more than 1e-9, and deep stacks of tiny or huge factors.
EXTREME_STACKS = [_fixed(3, 1000.0), _fixed(2, 1e7), _fixed(1, 150.0), _fixed(5, -200.0), _fixed(1, 2e8),
                  _fixed(3, -5e6), _fixed(40, 101.0), _fixed(2, 1e9), _fixed(40000, 1e-4), _fixed(65536, 1e-5),
                  _fixed(50000, 0.99999, False), _fixed(99999, -2e-6), _fixed(32768, 3e-4), _fixed(100000, 1e-7),
                  _fixed(1000, 0.0009), _fixed(1000, -0.0009), _fixed(5000, 0.0005), _fixed(3000, 0.00099),
                  _fixed(20000, -0.0002), _fixed(100000, 5e-5), _fixed(100000, 0.00099), _fixed(100000, -0.00099),
                  # slopes too small to matter in one block, but not over 1,000 to 100,000 of them
                  _fixed(100000, 1e-13), _fixed(100000, -3e-13), _fixed(1000, 5e-10), _fixed(50000, 2e-11),
                  _fixed(99999, 1e-12), _fixed(100000, 5e-14),
                  # past 100,000 blocks (the spec sets no limit on depth; a loop, even one that prints
                  # every block, takes well under a second), and slopes under 1e-7 over stacks deep
                  # enough that 1 + depth * slope misses
                  _fixed(100000, 9e-8), _fixed(150000, 3e-8), _fixed(200000, 1e-6), _fixed(250000, -9e-8),
                  # tiny and huge factors over 20 to 200 blocks whose product is still in range: no early
                  # answer for "small (or large) factor, many blocks"
                  _fixed(21, 1e-11, False), _fixed(21, -1e-11, False), _fixed(28, 1e-10, False),
                  _fixed(41, 1e-4, False), _fixed(31, 1e7, False), _fixed(21, -1e11, False), _fixed(95, 1e-3, False),
                  _fixed(41, -0.9999), _fixed(31, 1e7 - 1.0), _fixed(21, -1e11 - 1.0), _fixed(95, -0.999),
                  _fixed(140, 99.0), _fixed(180, -0.97)]

# On every seed: at every depth from 2 to 30 and at depths up to 5,000 between, products at both ends
# of the range the grader sends (1e-285 and 1e285), either sign, with and without the skip. An early
# answer for "small (or large) factor, many blocks", whatever its thresholds, is wrong at one of them.
EDGE_DEPTHS = (*range(2, 31), 32, 35, 40, 45, 50, 60, 70, 85, 100, 130, 160, 200, 260, 330, 420, 550, 700, 900, 1200,
               1600, 2100, 2800, 3700, 5000)


def _edge_stack(depth: int, factor: float, residual: bool):
    """A stack of ``depth`` blocks of this factor; without the skip where 1 + slope cannot hold it."""
    if residual and 1e-290 <= abs((1.0 + (factor - 1.0)) ** depth) <= 1e290:
        return _fixed(depth, factor - 1.0)
    return _fixed(depth, factor, False)


RANGE_EDGE_STACKS = [_edge_stack(depth, (-1.0) ** (depth // 2) * 10.0 ** (power / depth), position % 2 == 0)
                     for position, depth in enumerate(EDGE_DEPTHS) for power in (-285.0, 285.0)]

# On every seed: factors of 0, 1, -1, 2 and -2 (slopes such as -1, -2 and 0), with and without
# the skip, at depths 0 to 3 and at a large even and odd depth: a special case for one slope that
# forgets depth 0 or the parity shows there.
SPECIAL_DEPTH = 40_000  # past 32767 (an int16 depth shows), and cheap for a loop that prints every block
SPECIAL_STACKS = [_fixed(depth, slope, residual) for slope in (-1.0, -2.0, 0.0, -0.0, 1.0, -3.0, 2.0, -1.5, -0.5)
                  for residual in (True, False)
                  for top in [min(_deepest(1.0 + slope if residual else slope), SPECIAL_DEPTH) // 2 * 2]
                  for depth in (0, 1, 2, 3, top, top - 1)]


@pytest.mark.points(1)
def test_returns_a_float_for_every_stack(student, cases):
    """The result is a finite float (not an int, bool, array, nan or inf) for every depth, slope and residual, depth 0 included."""
    def returns_a_float(case):
        args, kwargs = case[:2]
        value = student.call(FUNCTION, *args, **kwargs).value
        if isinstance(value, bool) or not isinstance(value, float):
            fail(f"{describe(case)} returned {value!r} of type {type(value).__name__}; expected a float.",
                 "Return a float on every path: 1.0 (not 1) for depth 0, 0.0 (not 0) for a zero factor, and "
                 "no list or array.")
        if not math.isfinite(value):  # every depth here keeps the product within the float range
            fail(f"{describe(case)} returned {value!r}; expected a finite float.",
                 "Every stack here has a finite product of factors: the result is a number, never nan or infinity.")

    cases.check(stacks(), returns_a_float, describe=describe,
                explicit=[((0, 0.5), {}, 0, 0.5, True), ((0, 0.0), {"residual": False}, 0, 0.0, False),
                          ((3, -1.0), {}, 3, -1.0, True), ((3, 0.0, False), {}, 3, 0.0, False), *SPECIAL_STACKS])


@pytest.mark.points(1)
def test_product_of_the_factors_for_every_stack(student, cases):
    """For every depth and finite slope, with and without skips, the result is the product of the depth factors."""
    def is_the_product(case):
        args, kwargs, depth, slope, residual = case
        expected = (1.0 + slope if residual else slope) ** depth
        expect_gradient(student, args, kwargs, float(expected),
                        "Multiply the depth factors themselves, for every slope: no special case for 0 or -1, no "
                        "dropped sign, no logarithms (they fail at factors of 0 and below), and no rounding.")

    cases.check(stacks(), is_the_product, describe=describe,
                explicit=EXTREME_STACKS + SPECIAL_STACKS + RANGE_EDGE_STACKS)


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_depths_and_slopes(student, reference, cases):
    """On random stacks from the whole domain (depths, slopes, skips on and off, every way to pass residual) the result is a float within 1e-9 of the reference."""
    def matches(case):
        args, kwargs, depth, slope, residual = case
        value = student.call(FUNCTION, *args, **kwargs).value
        expected = reference.residual_chain_gradient(depth, slope, residual)
        if (isinstance(value, bool) or not isinstance(value, float)
                or not np.isclose(value, expected, rtol=RTOL, atol=0.0)):
            fail(f"{describe(case)} returned {value!r}; expected {expected!r}.",
                 "Multiply all depth factors, for every depth, sign and size of slope, and return the "
                 "product as a float, unclipped and unrounded.")

    cases.check(stacks(), matches, explicit=EXTREME_STACKS + SPECIAL_STACKS)


# The plot in the HTML report: the public ten-block stack, block by block, with and without skips.
from autograder.figures import Curve, PlotSpec  # noqa: E402

PLOTS = (PlotSpec("Gradient against depth, slope 0.025", FUNCTION, "depth (blocks)", "gradient", (
    Curve("with skip connections", tuple(((depth, 0.025), {"residual": True}) for depth in range(11)),
          tuple(range(11)), tuple(1.025 ** depth for depth in range(11))),
    Curve("without", tuple(((depth, 0.025), {"residual": False}) for depth in range(11)),
          tuple(range(11)), tuple(0.025 ** depth for depth in range(11))),
), guides=(("1", 1.0),)),)
