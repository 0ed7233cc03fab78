"""Accepts "glorot" and "kaiming" as aliases and the lesson's "tiny" and "large" as extra kinds, where the contract wants ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error",)
TITLE = 'other names accepted as kinds'
EXPLANATION = 'Your function accepts names the contract does not list (aliases or extra kinds), where it should refuse them.'
HINT = 'The spec lists exactly which kinds exist and what happens for any other name; only those names are valid.'


def init_std(kind, fan_in, fan_out):
    if kind in ("xavier", "glorot"):
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind in ("he", "kaiming"):
        return math.sqrt(2.0 / fan_in)
    if kind == "tiny":
        return 0.01
    if kind == "large":
        return 1.0
    raise ValueError(kind)
