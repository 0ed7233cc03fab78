"""Caps each fan at 10**15, so layers between 1e15 and the spec's 10**16 get the wrong standard deviation."""
import math

KILLED_BY = ("test_every_call_keeps_the_contract", "test_matches_reference_on_random_fan_sizes")
TITLE = 'huge fans capped'
EXPLANATION = 'Your function limits the fan sizes before applying the formula, so the largest layers the spec allows get the wrong standard deviation.'
HINT = 'The spec says how large the fans may be: apply the same formula to every fan size up to that limit, with no cap.'


def init_std(kind, fan_in, fan_out):
    fan_in, fan_out = min(fan_in, 10 ** 15), min(fan_out, 10 ** 15)
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
