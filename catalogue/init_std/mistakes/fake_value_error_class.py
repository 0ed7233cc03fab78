"""Defines its own class named ValueError that does not derive from the built-in one, and raises that."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error",)


class ValueError(Exception):  # noqa: A001  (shadows the built-in on purpose: that is the mistake)
    pass


def init_std(kind, fan_in, fan_out):
    if kind == "he":
        return math.sqrt(2 / fan_in)
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    raise ValueError(kind)
