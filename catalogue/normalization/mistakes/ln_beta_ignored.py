"""Accepts beta but never adds it."""
import numpy as np

KILLED_BY = ("test_layer_norm_beta_shifts_each_feature_after_scaling", "test_layer_norm_gamma_and_beta_are_optional")
TITLE = 'LayerNorm ignores beta'
EXPLANATION = 'Your layer_norm accepts beta but never adds it.'
HINT = 'Reread what beta does in the spec, and check that it reaches the result.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return out
