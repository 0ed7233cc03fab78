"""Looks the rule up in a dict and lets the KeyError escape for an unknown kind instead of raising ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error", "test_kind_is_matched_exactly")
TITLE = 'an unknown kind escapes as a lookup error'
EXPLANATION = 'For an unknown kind your function lets a lookup error escape instead of raising the exception the contract asks for.'
HINT = 'Handle the unknown kind yourself and raise the exception the spec names.'

_RULES = {
    "xavier": lambda fan_in, fan_out: math.sqrt(2.0 / (fan_in + fan_out)),
    "he": lambda fan_in, fan_out: math.sqrt(2.0 / fan_in),
}


def init_std(kind, fan_in, fan_out):
    return _RULES[kind](fan_in, fan_out)
