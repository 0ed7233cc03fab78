import math


def init_std(kind, fan_in, fan_out):
    """std for xavier / he init"""
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    elif kind == "he":
        # He et al. 2015: Var(W) = 2 / fan_in
        return 2.0 / fan_in
    else:
        raise ValueError("kind must be 'xavier' or 'he', got " + repr(kind))
