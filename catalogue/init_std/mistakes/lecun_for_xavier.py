"""Uses LeCun's sqrt(1 / fan_in) for Xavier, which only agrees when fan_in equals fan_out."""
import math

KILLED_BY = ("test_xavier_uses_fan_in_plus_fan_out",)
TITLE = "LeCun's rule used for Xavier"
EXPLANATION = "For Xavier your function uses LeCun's rule, which depends on the fan-in only."
HINT = "Xavier's rule averages the two fans; reread which fans appear in it."


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(1.0 / fan_in)
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
