import numpy as np


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        n = (fan_in + fan_out) / 2   # average fan
        return np.sqrt(1.0 / n)
    if kind == "he":
        return np.sqrt(2.0 / fan_in)
    raise ValueError("unknown kind: %s" % kind)
