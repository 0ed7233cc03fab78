"""Divides by the row's length sqrt(sum(x ** 2)) instead of the root of the mean of squares."""
import numpy as np

KILLED_BY = ("test_rms_norm_of_one_two_three_four",)
TITLE = 'RMSNorm divides by the length'
EXPLANATION = 'Your rms_norm divides each row by its length instead of by the root of the mean of its squares.'
HINT = 'The root-mean-square averages the squares before the square root; the length only sums them.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.sum(x ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
