"""Accepts any kind starting with "xav" as Xavier instead of raising ValueError."""

import math

KILLED_BY = ("test_every_call_keeps_the_contract",)
TITLE = 'names that merely start like a kind accepted'
EXPLANATION = 'Your function accepts any name that starts like a known kind, where the contract wants unknown names refused.'
HINT = 'Only the exact names from the spec are valid; the spec says what an unknown kind must cause.'


def init_std(kind, fan_in, fan_out):
    if kind.startswith("xav"):
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
