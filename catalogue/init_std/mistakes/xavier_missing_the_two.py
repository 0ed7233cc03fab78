"""Drops the 2 from Xavier's rule: sqrt(1 / (fan_in + fan_out))."""
import math

KILLED_BY = ("test_xavier_std_for_100_in_100_out_is_0_1", "test_xavier_uses_fan_in_plus_fan_out")
TITLE = "Xavier's rule without its factor of two"
EXPLANATION = 'For Xavier your function leaves out the factor of two in the numerator.'
HINT = "Reread Xavier's rule in the spec: it averages the two fans, which puts a two in the formula."


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(1.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
