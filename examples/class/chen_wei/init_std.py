# Chen Wei - HW3 part 3
from math import sqrt

_RULES = {
    "xavier": lambda fan_in, fan_out: sqrt(2 / (fan_in + fan_out)),
    "he": lambda fan_in, fan_out: sqrt(2 / fan_in),
}


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    if kind not in _RULES:
        raise ValueError(f"unknown init kind: {kind}")
    return _RULES[kind](fan_in, fan_out)
