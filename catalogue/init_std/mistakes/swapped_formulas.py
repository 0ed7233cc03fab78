"""Swaps the two rules, giving Xavier's value for "he" and He's value for "xavier"."""
import math

KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_xavier_std_for_100_in_100_out_is_0_1")
TITLE = 'the two rules swapped'
EXPLANATION = "Your function gives Xavier's value for He and He's value for Xavier."
HINT = 'Match each name in the spec to its own rule.'


def init_std(kind, fan_in, fan_out):
    if kind == "he":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "xavier":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
