"""Rounds the result to four decimals, which the round public examples cannot reveal but random fan sizes do."""
import math

KILLED_BY = ("test_matches_reference_on_random_fan_sizes",)
TITLE = 'the result rounded to a few decimals'
EXPLANATION = 'Your function rounds its answer, which looks right on round examples but is too coarse for other fan sizes.'
HINT = 'Return the value as computed, without rounding.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return round(math.sqrt(2.0 / (fan_in + fan_out)), 4)
    if kind == "he":
        return round(math.sqrt(2.0 / fan_in), 4)
    raise ValueError(kind)
