import numpy as np


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    """Standard deviation for Xavier (Glorot) or He (Kaiming) init."""
    if kind == "he":
        return float(np.sqrt(2.0 / fan_in))
    if kind == "xavier":
        return float(np.sqrt(2.0 / (fan_in + fan_out)))
    raise ValueError("unsupported initialization: " + str(kind))
