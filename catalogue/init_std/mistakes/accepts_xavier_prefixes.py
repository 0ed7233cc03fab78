"""Accepts any kind starting with "xav" as Xavier instead of raising ValueError."""

import math

KILLED_BY = ("test_every_call_keeps_the_contract",)


def init_std(kind, fan_in, fan_out):
    if kind.startswith("xav"):
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
