import math


def init_std(kind, fan_in, fan_out):
    # xavier: keep the variance of the activations at 1 -> Var(W) = 1 / fan_in
    if kind == "xavier":
        return math.sqrt(1 / fan_in)
    # he: relu kills half -> twice as much
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError("kind must be xavier or he")
