"""Looks the variance rule up in a dict, checks membership first, and converts numpy's sqrt to a float."""
import numpy as np

VARIANCE = {
    "xavier": lambda fan_in, fan_out: 2.0 / (fan_in + fan_out),
    "he": lambda fan_in, fan_out: 2.0 / fan_in,
}


def init_std(kind, fan_in, fan_out):
    if kind not in VARIANCE:
        raise ValueError(f"init_std: unknown kind {kind!r}")
    return float(np.sqrt(VARIANCE[kind](fan_in, fan_out)))
