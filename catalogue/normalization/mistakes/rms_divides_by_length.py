"""Divides by the row's length sqrt(sum(x ** 2)) instead of the root of the mean of squares."""
import numpy as np

KILLED_BY = ("test_rms_norm_of_one_two_three_four",)


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.sum(x ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
