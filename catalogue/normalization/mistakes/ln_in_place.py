"""Normalizes with x -= mean and x /= std, which overwrites the caller's array."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = "LayerNorm overwrites the caller's array"
EXPLANATION = 'Your layer_norm modifies the array it was given instead of returning a new one.'
HINT = "The caller's input must come back untouched: compute the result in a new array."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    x -= x.mean(axis=-1, keepdims=True)
    x /= np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        x *= gamma
    if beta is not None:
        x += beta
    return x
