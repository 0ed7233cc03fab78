"""Centres each row before dividing by its root-mean-square, which turns RMSNorm into LayerNorm."""
import numpy as np

KILLED_BY = ("test_rms_norm_does_not_subtract_the_mean", "test_rms_norm_of_one_two_three_four")
TITLE = 'RMSNorm centres the rows'
EXPLANATION = "Your rms_norm subtracts each row's mean before dividing, which turns RMSNorm into LayerNorm."
HINT = 'RMSNorm never centres the row: that is what distinguishes it from LayerNorm.'


def rms_norm(x, eps=1e-6, gamma=None):
    centred = x - x.mean(axis=-1, keepdims=True)
    out = centred / np.sqrt(np.mean(centred ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
