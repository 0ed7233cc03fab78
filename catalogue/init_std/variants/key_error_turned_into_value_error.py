"""Catches the KeyError of a dict lookup and raises ValueError from it."""
import math

_NUMERATOR_AND_FANS = {"xavier": (2.0, True), "he": (2.0, False)}


def init_std(kind, fan_in, fan_out):
    try:
        numerator, uses_fan_out = _NUMERATOR_AND_FANS[kind]
    except KeyError:
        raise ValueError(f"unknown initialization: {kind}") from None
    return math.sqrt(numerator / (fan_in + fan_out if uses_fan_out else fan_in))
