"""Rounds the exact rational power once (fractions.Fraction), which differs from ** in the last bit for some inputs."""
from fractions import Fraction

KILLED_BY = ("test_exact_power_not_a_rounded_loop",)
TITLE = 'the exact power, rounded once'
EXPLANATION = 'Your function computes the exact power and rounds it once, which is not always what ** gives.'
HINT = 'The spec names the operation the grader compares with, bit for bit: the power operator itself, not the exact power.'


def scalar_gradient_chain(depth, layer_scale):
    return float(Fraction(layer_scale) ** depth)
