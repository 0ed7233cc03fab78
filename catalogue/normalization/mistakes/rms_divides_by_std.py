"""Divides the uncentred row by its standard deviation instead of its root-mean-square."""
import numpy as np

KILLED_BY = ("test_rms_norm_of_one_two_three_four", "test_rms_norm_does_not_subtract_the_mean")
TITLE = 'RMSNorm divides by the standard deviation'
EXPLANATION = "Your rms_norm divides by each row's standard deviation, which subtracts the mean, instead of by its root-mean-square."
HINT = 'RMSNorm never centres the row: the root-mean-square is taken of the row as it is.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
