import math


def init_std(kind, fan_in, fan_out):
    print("init_std called with", kind, fan_in, fan_out)
    if kind == "xavier":
        std = math.sqrt(2 / (fan_in + fan_out))
    elif kind == "he":
        std = math.sqrt(2 / fan_in)
    else:
        print("bad kind!!", repr(kind))
        raise ValueError(f"unknown kind {kind!r}")
    print("  -> std =", std)
    return std
