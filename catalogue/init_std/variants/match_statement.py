"""Dispatches with a match statement whose catch-all case raises ValueError."""
import math


def init_std(kind, fan_in, fan_out):
    match kind:
        case "xavier":
            variance = 2 / (fan_in + fan_out)
        case "he":
            variance = 2 / fan_in
        case _:
            raise ValueError(kind)
    return math.sqrt(variance)
