"""Rounds the result to 12 decimals, which loses the precision of the small standard deviations of huge fans."""

import math

KILLED_BY = ("test_every_call_keeps_the_contract",)


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return round(math.sqrt(2 / (fan_in + fan_out)), 12)
    if kind == "he":
        return round(math.sqrt(2 / fan_in), 12)
    raise ValueError(kind)
