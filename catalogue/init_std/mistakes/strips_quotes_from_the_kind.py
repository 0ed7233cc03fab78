"""Strips quotes off both ends of the kind, so "'he'" and '"xavier"' are accepted instead of raising ValueError."""
import math

KILLED_BY = ("test_kind_is_matched_exactly", "test_every_call_keeps_the_contract")
TITLE = 'quotes stripped off the kind'
EXPLANATION = 'Your function trims quotes (or other characters) off the kind before comparing it, so misspelled kinds are accepted.'
HINT = 'Compare the kind exactly as given, without trimming anything off its ends: any other string is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    kind = kind.strip("'\"")
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
