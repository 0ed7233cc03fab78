"""Divides by the fan-out in He's rule, sqrt(2 / fan_out), which only agrees when the fans are equal."""
import math

KILLED_BY = ("test_he_uses_fan_in_only",)
TITLE = "He's rule uses the fan-out"
EXPLANATION = "For He your function divides by the fan-out, where He's rule uses the fan-in."
HINT = "Which fan does He's rule depend on? It only looks at the inputs of a layer."


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_out)
    raise ValueError(kind)
