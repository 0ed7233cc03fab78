"""Subtracts the mean from the caller's x in place and adds it back afterwards, which leaves rounding changes in x."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = "LayerNorm changes the caller's array and undoes it"
EXPLANATION = "Your layer_norm works on the array it was given and puts it back afterwards, but not bit for bit."
HINT = "Undoing an in-place change leaves rounding differences: leave the caller's array alone and compute in new arrays."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mean = x.mean(axis=-1, keepdims=True)
    x -= mean
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    x += mean
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
