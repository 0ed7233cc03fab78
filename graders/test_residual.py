"""Checks for residual.py: the gradient is the product of depth factors, 1 + block_slope with skips, block_slope without."""

import numpy as np
import pytest

from autograder.checks import call_text, expect_real, fail

EXERCISE = "residual"
FUNCTION = "residual_chain_gradient"
RTOL = 1e-9

TEN_WITH_SKIPS = 1.2800845441963566  # 1.025 ** 10
TEN_WITHOUT_SKIPS = 9.536743164062505e-17  # 0.025 ** 10

COMPOUND_HINT = ("Every block multiplies the gradient by its own factor, so the factors compound: "
                 "(1 + block_slope) ** depth with skips, block_slope ** depth without.")


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
        (1.0, "1 + 0.025 ** 10 adds the skip path once, after the chain; every block has its own skip, "
              "so every factor is 1 + block_slope."),
        (1.25, "1 + 10 * 0.025 adds the slopes; the per-block factors multiply: (1 + 0.025) ** 10."),
        (TEN_WITHOUT_SKIPS, "That is the chain without skips; with residual=True each factor is 1 + block_slope."),
    )
    expect_gradient(student, (10, 0.025), {"residual": True}, TEN_WITH_SKIPS, COMPOUND_HINT, clues)
    expect_gradient(student, (10, 0.025, True), {}, TEN_WITH_SKIPS,
                    "Keep the stub's signature: residual is the third parameter and may be passed by position.", clues)


@pytest.mark.points(2)
def test_ten_plain_blocks_vanish(student):
    """Without skip connections the same ten blocks pass back only 0.025 ** 10, about 9.5e-17."""
    clues = ((TEN_WITH_SKIPS, "That is the chain with skips; with residual=False each factor is block_slope alone."),)
    expect_gradient(student, (10, 0.025), {"residual": False}, TEN_WITHOUT_SKIPS, COMPOUND_HINT, clues)
    expect_gradient(student, (10, 0.025, False), {}, TEN_WITHOUT_SKIPS,
                    "Keep the stub's signature: residual is the third parameter and may be passed by position.", clues)


@pytest.mark.points(1)
def test_skip_path_is_the_default(student):
    """Called without the third argument, the blocks have skip connections (residual defaults to True)."""
    hint = "Keep the stub's signature, residual: bool = True: leaving the argument out means the skip path is there."
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
    for slope in (0.025, 0.0, -0.5, 2.0):
        for residual in (True, False):
            expect_gradient(student, (0, slope), {"residual": residual}, 1.0, hint)


@pytest.mark.points(1)
def test_zero_and_negative_slopes(student):
    """Any slope works: a zero factor kills the gradient, and a negative one flips its sign at every block."""
    hint = ("Multiply the factors themselves: a zero factor gives 0.0 and a negative one flips the sign, so do not "
            "take abs() or go through log and exp, which fail for factors of 0 or below.")
    cases = (((5, 0.0, False), 0.0), ((5, 0.0, True), 1.0), ((3, -0.5, False), -0.125), ((4, -0.5, False), 0.0625),
             ((3, -0.5, True), 0.125), ((3, -3.0, True), -8.0), ((2, -1.0, True), 0.0))
    for (depth, slope, residual), expected in cases:
        expect_gradient(student, (depth, slope), {"residual": residual}, expected, hint)


@pytest.mark.points(1)
def test_factors_compound_not_add(student):
    """Factors multiply, so they compound: ten blocks of slope 0.5 with skips give 1.5 ** 10 = 57.67, not 1 + 10 * 0.5."""
    cases = (((10, 0.5, True), 57.6650390625), ((10, 1.0, True), 1024.0), ((4, 2.0, False), 16.0),
             ((6, -2.0, False), 64.0))
    for (depth, slope, residual), expected in cases:
        expect_gradient(student, (depth, slope), {"residual": residual}, expected, COMPOUND_HINT)


def _hidden_slope(rng):
    """A slope from [-2, 2] whose factor, with or without the skip, stays at least 0.05 away from 0.

    The bound keeps every product between 0.05 ** 60 and 3 ** 60, far from underflow and overflow,
    so block-by-block loops and single powers agree to about 1e-14.
    """
    while True:
        slope = float(rng.uniform(-2.0, 2.0))
        if abs(slope) >= 0.05 and abs(1.0 + slope) >= 0.05:
            return slope


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_depths_and_slopes(student, reference, rng):
    """On 200 random stacks (0 to 60 blocks, slopes from -2 to 2, skips on and off) the result matches the reference to 1e-9."""
    for _ in range(200):
        depth = int(rng.integers(0, 61))
        slope = _hidden_slope(rng)
        residual = bool(rng.integers(2))
        style = int(rng.integers(3))
        if style == 0:
            args, kwargs = (depth, slope, residual), {}
        elif style == 1 or not residual:
            args, kwargs = (depth, slope), {"residual": residual}
        else:
            args, kwargs = (depth, slope), {}
        expect_gradient(student, args, kwargs, reference.residual_chain_gradient(depth, slope, residual),
                        "Multiply all depth factors, for every depth, sign and size of slope, and return the "
                        "product unclipped and unrounded.")


# The plot in the HTML report: the public ten-block stack, block by block, with and without skips.
from autograder.figures import Curve, PlotSpec  # noqa: E402

PLOTS = (PlotSpec("Gradient against depth, slope 0.025", FUNCTION, "depth (blocks)", "gradient", (
    Curve("with skip connections", tuple(((depth, 0.025), {"residual": True}) for depth in range(11)),
          tuple(range(11)), tuple(1.025 ** depth for depth in range(11))),
    Curve("without", tuple(((depth, 0.025), {"residual": False}) for depth in range(11)),
          tuple(range(11)), tuple(0.025 ** depth for depth in range(11))),
), guides=(("1", 1.0),)),)
