"""Keeps only the part before an underscore, so "xavier_uniform" and "he_normal" are accepted instead of raising ValueError."""

import math

KILLED_BY = ("test_every_call_keeps_the_contract",)
TITLE = 'longer names cut down to a known kind'
EXPLANATION = 'Your function accepts a longer name by keeping only its first part, so names the contract does not list get through.'
HINT = 'Compare the whole kind with the names the spec lists; anything else is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    base = kind.split("_")[0]
    if base == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if base == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
