"""Drops one trailing "s" from the kind, so "hes" and "xaviers" are accepted instead of raising ValueError."""
import math

KILLED_BY = ("test_kind_is_matched_exactly", "test_every_call_keeps_the_contract")
TITLE = 'a plural accepted'
EXPLANATION = 'Your function drops a trailing letter from the kind before comparing it, so misspelled kinds are accepted.'
HINT = 'Compare the kind exactly as given: any string other than the two names the spec lists is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    if kind.endswith("s"):
        kind = kind[:-1]
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
