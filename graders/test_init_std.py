"""Checks for init_std.py: He is sqrt(2 / fan_in), Xavier sqrt(2 / (fan_in + fan_out)), other kinds raise ValueError."""

import numpy as np
import pytest

from autograder.checks import call_text, expect_real, fail, show
from autograder.problems import StudentRaised

EXERCISE = "init_std"
FUNCTION = "init_std"
RTOL = 1e-9

HE_50_CLUES = (
    (0.04, "0.04 is the variance 2 / 50; the standard deviation is its square root, 0.2."),
    (0.1414213562373095, "0.1414 is sqrt(1 / 50) = sqrt(2 / 100): either the 2 is missing (that is LeCun's rule) "
                         "or Xavier's formula was used for \"he\"."),
    (0.34641016151377546, "0.3464 is sqrt(6 / 50), the limit of a uniform distribution, not a standard deviation."),
    (0.0, "0.0 usually means integer division: 2 // 50 is 0; divide with / instead."),
)
XAVIER_100_CLUES = (
    (0.01, "0.01 is the variance 2 / 200; the standard deviation is its square root, 0.1."),
    (0.1414213562373095, "0.1414 is sqrt(2 / 100): only the fan-in is in the denominator (or He's rule was used "
                         "for \"xavier\"); Xavier divides by fan_in + fan_out."),
    (0.07071067811865475, "0.0707 is sqrt(1 / 200): the 2 in the numerator is missing."),
    (0.17320508075688773, "0.1732 is sqrt(6 / 200), the limit of a uniform distribution, not a standard deviation."),
    (0.0, "0.0 usually means integer division: 2 // 200 is 0; divide with / instead."),
)


def expect_std(student, kind, fan_in, fan_out, expected, hint, clues=()):
    """The student's std for one layer must be within RTOL of `expected`; a known wrong value gets its own hint."""
    call = call_text(FUNCTION, kind, fan_in, fan_out)
    got = expect_real(student.call(FUNCTION, kind, fan_in, fan_out).value, call)
    if not np.isclose(got, expected, rtol=RTOL, atol=0.0):
        hint = next((why for wrong, why in clues if np.isclose(got, wrong, rtol=1e-6, atol=0.0)), hint)
        fail(f"{call} returned {got!r}; expected {expected!r}.", hint)


def expect_value_error(student, kind, hint):
    """init_std(kind, 64, 64) must raise ValueError (or any subclass of it, the student's own included)."""
    call = call_text(FUNCTION, kind, 64, 64)
    try:
        value = student.call(FUNCTION, kind, 64, 64).value
    except StudentRaised as exc:  # the one problem this check inspects instead of letting through
        if not exc.raised("ValueError"):
            fail(f"{call} raised {exc.exc_type}; expected a ValueError.",
                 "Raise ValueError (raise ValueError(f\"unknown kind {kind!r}\")): "
                 "not a KeyError from a dict lookup, an AssertionError or a bare Exception.")
    else:
        fail(f"{call} returned {show(value)}; expected a ValueError.", hint)


@pytest.mark.points(2)
def test_he_std_for_fan_in_50_is_0_2(student):
    """He initialization with a fan-in of 50 gives weights of standard deviation sqrt(2 / 50) = 0.2."""
    expect_std(student, "he", 50, 50, 0.2,
               "He's rule for ReLU layers is sqrt(2 / fan_in): the variance 2 / 50 = 0.04, whose square root is 0.2.",
               HE_50_CLUES)


@pytest.mark.points(2)
def test_xavier_std_for_100_in_100_out_is_0_1(student):
    """Xavier initialization with 100 inputs and 100 outputs gives sqrt(2 / 200) = 0.1."""
    expect_std(student, "xavier", 100, 100, 0.1,
               "Xavier's rule is sqrt(2 / (fan_in + fan_out)): the variance 2 / 200 = 0.01, whose square root is 0.1.",
               XAVIER_100_CLUES)


@pytest.mark.points(1)
def test_xavier_uses_fan_in_plus_fan_out(student):
    """Xavier divides by the sum of both fans, also when they differ: 150 in and 50 out give sqrt(2 / 200) = 0.1."""
    hint = ("Xavier balances the forward and the backward pass, so both fans count: sqrt(2 / (fan_in + fan_out)). "
            "sqrt(1 / fan_in) (LeCun's rule) agrees with it only when fan_in equals fan_out.")
    for fan_in, fan_out, expected in ((150, 50, 0.1), (50, 150, 0.1), (12, 38, 0.2), (1, 7, 0.5), (1, 1, 1.0)):
        expect_std(student, "xavier", fan_in, fan_out, expected, hint)


@pytest.mark.points(1)
def test_he_uses_fan_in_only(student):
    """He looks at the fan-in alone: a fan-in of 50 gives 0.2 whatever the fan-out is."""
    hint = "He's rule is sqrt(2 / fan_in); the fan-out does not appear in it."
    for fan_in, fan_out, expected in ((50, 10, 0.2), (50, 400, 0.2), (8, 2, 0.5), (2, 8, 1.0), (200, 1, 0.1)):
        expect_std(student, "he", fan_in, fan_out, expected, hint)


@pytest.mark.points(1)
def test_unknown_kind_raises_value_error(student):
    """Any kind other than "xavier" and "he" (such as "lecun", "kaiming", "glorot" or "") raises ValueError."""
    hint = ("Only \"xavier\" and \"he\" are valid; end with `raise ValueError(...)` for everything else instead of "
            "returning a value or accepting other names for the rules.")
    for kind in ("lecun", "kaiming", "glorot", "tiny", "large", "uniform", ""):
        expect_value_error(student, kind, hint)


@pytest.mark.points(1)
def test_kind_is_matched_exactly(student):
    """The kind must be spelled exactly: "Xavier", "HE" or "he " are unknown kinds and raise ValueError."""
    hint = "Compare the kind as given, with no .lower() or .strip(): only \"xavier\" and \"he\" are valid."
    for kind in ("Xavier", "HE", "He", "XAVIER", "he ", " xavier"):
        expect_value_error(student, kind, hint)


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_fan_sizes(student, reference, rng):
    """On 100 random layers (both kinds, fans from 1 to 4096) the result matches the reference to 1e-9."""
    for _ in range(100):
        kind = ("xavier", "he")[int(rng.integers(2))]
        fan_in, fan_out = (int(n) for n in rng.integers(1, 4097, size=2))
        expect_std(student, kind, fan_in, fan_out, reference.init_std(kind, fan_in, fan_out),
                   "Apply the exact formula for every fan size and return it unrounded.")
