"""Uses numpy.sqrt and returns the numpy float64 it gives."""
import numpy as np


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    if kind == "xavier":
        return np.sqrt(2 / (fan_in + fan_out))
    elif kind == "he":
        return np.sqrt(2 / fan_in)
    else:
        raise ValueError(f"unknown kind {kind}")
