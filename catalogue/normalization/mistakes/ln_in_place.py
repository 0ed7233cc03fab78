"""Normalizes with x -= mean and x /= std, which overwrites the caller's array."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    x -= x.mean(axis=-1, keepdims=True)
    x /= np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        x *= gamma
    if beta is not None:
        x += beta
    return x
