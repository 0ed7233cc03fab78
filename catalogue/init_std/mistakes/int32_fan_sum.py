"""Adds the fans as 32-bit integers, which wrap past 2**31 - 1."""
import numpy as np

KILLED_BY = ("test_every_call_keeps_the_contract", "test_matches_reference_on_random_fan_sizes")
TITLE = 'fans held in 32-bit integers'
EXPLANATION = 'Your function holds the fans in 32-bit integers, which wrap around for layers whose fans add up past about two billion.'
HINT = 'Keep the fans as the Python ints they are (or go to float): a fixed-size integer type has a largest value.'


def init_std(kind, fan_in, fan_out):
    fans = np.array([fan_in, fan_out], dtype=np.int64).astype(np.int32)
    with np.errstate(all="ignore"):
        if kind == "xavier":
            return float(np.sqrt(2.0 / np.int32(fans[0] + fans[1])))
        if kind == "he":
            return float(np.sqrt(2.0 / fans[0]))
    raise ValueError(kind)
