"""Reshapes gamma and beta for broadcasting with `gamma.shape = ...`, which changes the caller's arrays."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = "LayerNorm reshapes the caller's gamma and beta"
EXPLANATION = ("Your layer_norm changes the shape of the gamma and beta arrays it was given: assigning to an "
               "array's shape changes the caller's array too, even though no value changes.")
HINT = "Leave every argument as it came: broadcasting already lines gamma and beta up with the last axis."


def _aligned(a, ndim):
    a.shape = (1,) * (ndim - 1) + (-1,)
    return a


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    out = (x - mu) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * _aligned(gamma, x.ndim)
    if beta is not None:
        out = out + _aligned(beta, x.ndim)
    return out
