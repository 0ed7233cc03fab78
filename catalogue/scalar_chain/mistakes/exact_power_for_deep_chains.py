"""Past twenty layers rounds the exact rational power once (fractions.Fraction), which differs from ** in the last bit for some inputs."""
from fractions import Fraction

KILLED_BY = ("test_exact_power_not_a_rounded_loop", "test_equals_the_power_for_every_depth_and_scale")
TITLE = 'the exact power for deep chains'
EXPLANATION = 'For deep chains your function computes the exact power and rounds it once, which is not always what ** gives.'
HINT = 'The spec names the operation the grader compares with, bit for bit, for every depth: the power operator itself, not the exact power.'


def scalar_gradient_chain(depth, layer_scale):
    if depth > 20:
        return float(Fraction(layer_scale) ** depth)
    return float(layer_scale) ** depth
