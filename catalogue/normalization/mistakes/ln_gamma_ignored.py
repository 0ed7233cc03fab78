"""Accepts gamma but never multiplies by it."""
import numpy as np

KILLED_BY = ("test_layer_norm_gamma_scales_each_feature", "test_layer_norm_beta_shifts_each_feature_after_scaling")
TITLE = 'LayerNorm ignores gamma'
EXPLANATION = 'Your layer_norm accepts gamma but never multiplies by it.'
HINT = 'Reread what gamma does in the spec, and check that it reaches the result.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if beta is not None:
        out = out + beta
    return out
