"""Gives layer_norm the default eps = 0, so a constant row divides 0 by 0."""
import numpy as np

KILLED_BY = ("test_layer_norm_constant_row_is_all_zeros", "test_layer_norm_default_eps_is_1e_5")


def layer_norm(x, eps=0.0, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
