"""Checks the kind with assert, which raises AssertionError (and vanishes under python -O) instead of ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error",)
TITLE = 'an assertion guards the kind'
EXPLANATION = 'Your function checks the kind with an assertion, which raises the wrong type of exception and disappears when Python runs optimized.'
HINT = 'The spec names the exception an unknown kind must raise; raise that exception explicitly.'


def init_std(kind, fan_in, fan_out):
    assert kind in ("xavier", "he"), f"unknown kind {kind!r}"
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    return math.sqrt(2.0 / fan_in)
