"""Fatima Haddad -- initialization"""

import math

VALID_KINDS = ("xavier", "he")


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    """Std of the initial weights for the given rule."""
    if kind not in VALID_KINDS:
        raise ValueError(f"kind should be one of {VALID_KINDS}, not {kind!r}")

    if kind == "he":
        var = 2.0 / fan_in
    else:
        var = 2.0 / (fan_in + fan_out)
    return math.sqrt(var)
