"""Writes Xavier as sqrt(1 / average fan) and He as sqrt(2) / sqrt(fan_in), equal up to rounding."""
import math


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return 1.0 / math.sqrt((fan_in + fan_out) / 2)
    if kind == "he":
        return math.sqrt(2) / math.sqrt(fan_in)
    raise ValueError
