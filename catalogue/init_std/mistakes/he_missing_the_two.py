"""Forgets that He doubles the variance for ReLU and returns LeCun's sqrt(1 / fan_in)."""
import math

KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_he_uses_fan_in_only")
TITLE = "He's rule without the factor for ReLU"
EXPLANATION = "For He your function gives LeCun's standard deviation, forgetting that He doubles the variance to make up for ReLU."
HINT = "Reread He's rule in the spec: ReLU zeroes half of its inputs, and the rule compensates for that."


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(1.0 / fan_in)
    raise ValueError(kind)
