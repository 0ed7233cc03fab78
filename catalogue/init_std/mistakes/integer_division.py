"""Divides with // as in Python 2, so 2 // 50 is 0 and nearly every layer gets a standard deviation of 0."""
import math

KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_xavier_std_for_100_in_100_out_is_0_1")
TITLE = 'integer division'
EXPLANATION = 'Your function divides with integer division, so most ratios round down to 0.'
HINT = 'The ratio in the rule is a real number, usually smaller than 1: use true division.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2 // (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 // fan_in)
    raise ValueError(kind)
