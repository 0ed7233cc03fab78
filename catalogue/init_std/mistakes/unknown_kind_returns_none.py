"""Falls off the end of the function for an unknown kind and so returns None instead of raising ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error", "test_kind_is_matched_exactly")


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
