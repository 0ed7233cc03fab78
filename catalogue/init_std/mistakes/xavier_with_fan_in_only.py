"""Leaves the fan-out out of Xavier's denominator: sqrt(2 / fan_in)."""
import math

KILLED_BY = ("test_xavier_std_for_100_in_100_out_is_0_1", "test_xavier_uses_fan_in_plus_fan_out")
TITLE = "Xavier's rule without the fan-out"
EXPLANATION = 'For Xavier your function leaves the fan-out out of the denominator.'
HINT = "Xavier's rule balances the forward and the backward pass, so both fans appear in it."


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2.0 / fan_in)
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
