import math


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    """Xavier: sqrt(2/(fan_in+fan_out)); He: sqrt(2/fan_in)."""
    if kind == "xavier":
        denominator = fan_in + fan_out
    elif kind == "he":
        denominator = fan_in
    else:
        raise ValueError(f"expected 'xavier' or 'he', got {kind!r}")
    return math.sqrt(2 / denominator)
