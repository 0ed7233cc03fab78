"""Exercise 3 - Xavier / He init.  Amara Okafor"""

import numpy as np


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    if kind == "xavier":
        variance = 2 / (fan_in + fan_out)
    elif kind == "he":
        variance = 2 / fan_in  # ReLU halves the energy -> double the variance
    else:
        raise ValueError(f"init_std: unknown kind {kind!r} (use 'xavier' or 'he')")
    # return the std, not the variance!
    return float(np.sqrt(variance))
