# Kofi Mensah
# Exercise: He and Xavier initialization
import math


def init_weight_std(kind: str, fan_in: int, fan_out: int) -> float:
    """Standard deviation of the initial weights."""
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    elif kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(f"Unknown init kind {kind!r}")
