"""Divides the uncentred row by its standard deviation instead of its root-mean-square."""
import numpy as np

KILLED_BY = ("test_rms_norm_of_one_two_three_four", "test_rms_norm_does_not_subtract_the_mean")


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
