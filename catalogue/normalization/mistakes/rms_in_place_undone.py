"""Divides the caller's x in place and multiplies it back afterwards, which leaves rounding changes in x."""
import numpy as np

KILLED_BY = ("test_rms_norm_leaves_its_input_unchanged",)
TITLE = "RMSNorm changes the caller's array and undoes it"
EXPLANATION = "Your rms_norm divides the array it was given and multiplies it back afterwards, but not bit for bit."
HINT = "Undoing an in-place change leaves rounding differences: leave the caller's array alone and compute in new arrays."


def rms_norm(x, eps=1e-6, gamma=None):
    scale = np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    x /= scale
    out = x.copy()
    x *= scale
    return out * gamma if gamma is not None else out
