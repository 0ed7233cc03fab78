"""Cuts "init_" off the front and "_init" off the end of the kind, so "he_init" and "init_xavier" are accepted instead of raising ValueError."""
import math

KILLED_BY = ("test_kind_is_matched_exactly", "test_every_call_keeps_the_contract")
TITLE = 'an affix cut off the kind'
EXPLANATION = 'Your function cuts a prefix or a suffix off the kind before comparing it, so longer names are accepted.'
HINT = 'Compare the whole kind with the names the spec lists; anything else, a longer name included, is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    kind = kind.removeprefix("init_").removesuffix("_init")
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
