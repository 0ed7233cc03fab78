"""Returns a value far too large to send back."""
import numpy as np


def init_std(kind, fan_in, fan_out):
    return np.zeros(60_000_000, dtype=np.uint8)
