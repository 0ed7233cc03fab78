"""Reference solution: He and Xavier initialization scales."""

import math


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(f"unknown initialization {kind!r}; expected 'xavier' or 'he'")
