"""Raises NotImplementedError for an unknown kind, where the contract asks for ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error",)
TITLE = 'the wrong exception for an unknown kind'
EXPLANATION = 'For an unknown kind your function raises an exception of another type than the one the contract asks for.'
HINT = 'The spec names the exception type an unknown kind must raise.'


def init_std(kind, fan_in, fan_out):
    if kind == "he":
        return math.sqrt(2 / fan_in)
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    raise NotImplementedError(f"no initialization called {kind!r}")
