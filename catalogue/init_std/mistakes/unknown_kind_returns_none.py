"""Falls off the end of the function for an unknown kind and so returns None instead of raising ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error", "test_kind_is_matched_exactly")
TITLE = 'an unknown kind returns nothing'
EXPLANATION = 'For an unknown kind your function reaches its end and returns None, where the contract asks for an exception.'
HINT = 'Every path through the function must either return a standard deviation or raise what the spec names.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
