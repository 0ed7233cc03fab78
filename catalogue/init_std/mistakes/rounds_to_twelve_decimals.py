"""Rounds the result to 12 decimals, which loses the precision of the small standard deviations of huge fans."""

import math

KILLED_BY = ("test_every_call_keeps_the_contract",)
TITLE = 'the result rounded to twelve decimals'
EXPLANATION = 'Your function rounds its answer to a fixed number of decimals, which loses precision for the small values of very large layers.'
HINT = 'Return the value as computed: rounding to decimal places costs relative precision for small numbers.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return round(math.sqrt(2 / (fan_in + fan_out)), 12)
    if kind == "he":
        return round(math.sqrt(2 / fan_in), 12)
    raise ValueError(kind)
