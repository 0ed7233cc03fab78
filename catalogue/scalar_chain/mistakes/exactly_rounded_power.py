"""Rounds the exact rational power once (fractions.Fraction), which differs from ** in the last bit for some inputs."""
import math
from decimal import MAX_EMAX, MIN_EMIN, Decimal, localcontext
from fractions import Fraction

KILLED_BY = ("test_exact_power_not_a_rounded_loop",)
TITLE = 'the exact power, rounded once'
EXPLANATION = 'Your function computes the exact power and rounds it once, which is not always what ** gives.'
HINT = 'The spec names the operation the grader compares with, bit for bit: the power operator itself, not the exact power.'


def exact_power(layer_scale, depth):
    """float(Fraction(layer_scale) ** depth) without its cost on deep chains (a second a call at
    depth 100,000): an odd numerator past 4096 bits is never a tie between two floats, so the power
    to 80 digits rounds the same way, short of landing within 1e-78 of a tie."""
    numerator, _ = Fraction(layer_scale).as_integer_ratio()
    if abs(numerator).bit_length() * depth <= 4096:
        return float(Fraction(layer_scale) ** depth)
    with localcontext() as context:
        context.prec, context.Emax, context.Emin = 80, MAX_EMAX, MIN_EMIN
        power = float(Decimal(layer_scale) ** depth)
    if math.isinf(power):
        raise OverflowError("integer division result too large for a float")
    return power


def scalar_gradient_chain(depth, layer_scale):
    return exact_power(layer_scale, depth)
