"""Removes every dash from the kind before comparing, so "he-" and "xa-vier" are accepted instead of raising ValueError."""
import math

KILLED_BY = ("test_kind_is_matched_exactly", "test_every_call_keeps_the_contract")
TITLE = 'characters removed from the kind'
EXPLANATION = 'Your function removes some characters from the kind before comparing it, so misspelled kinds are accepted.'
HINT = 'Compare the kind exactly as given: any string other than the two names the spec lists is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    kind = kind.replace("-", "")
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
