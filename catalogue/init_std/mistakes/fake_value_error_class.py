"""Defines its own class named ValueError that does not derive from the built-in one, and raises that."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error",)
TITLE = 'a home-made exception class with a built-in name'
EXPLANATION = 'Your function raises its own exception class that only borrows the built-in name, so a caller catching the built-in exception does not catch it.'
HINT = "Raise Python's own built-in exception, the one the spec names, rather than defining a new class."


class ValueError(Exception):  # noqa: A001  (shadows the built-in on purpose: that is the mistake)
    pass


def init_std(kind, fan_in, fan_out):
    if kind == "he":
        return math.sqrt(2 / fan_in)
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    raise ValueError(kind)
