"""Converts with np.asarray (no copy for a float64 array) and then divides in place, overwriting the caller's x."""
import numpy as np

KILLED_BY = ("test_rms_norm_leaves_its_input_unchanged",)
TITLE = "RMSNorm overwrites the caller's array"
EXPLANATION = 'Your rms_norm divides the array it was given in place instead of returning a new one.'
HINT = "The caller's input must come back untouched: converting an array that is already float64 does not copy it."


def rms_norm(x, eps=1e-6, gamma=None):
    x = np.asarray(x, dtype=float)
    x /= np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        x *= gamma
    return x
