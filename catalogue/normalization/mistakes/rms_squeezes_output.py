"""Squeezes the result, so a batch of one row (or a length-1 axis) loses a dimension."""
import numpy as np

KILLED_BY = ("test_rms_norm_keeps_the_shape_and_float64",)
TITLE = 'RMSNorm drops length-1 axes'
EXPLANATION = 'Your rms_norm squeezes its result, so an input with an axis of length 1 comes back with fewer dimensions.'
HINT = "The output must have exactly the input's shape, length-1 axes included."


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    return np.squeeze(out * gamma if gamma is not None else out)
