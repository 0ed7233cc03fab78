"""Applies gamma and beta along the first axis (one value per row) instead of one per feature."""
import numpy as np

KILLED_BY = ("test_layer_norm_gamma_scales_each_feature", "test_layer_norm_beta_shifts_each_feature_after_scaling")
TITLE = 'LayerNorm applies gamma and beta along the wrong axis'
EXPLANATION = 'Your layer_norm applies gamma and beta with one value per row instead of one value per feature.'
HINT = 'gamma and beta hold one value per feature; they line up with the feature axis.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = (out.T * gamma).T
    if beta is not None:
        out = (out.T + beta).T
    return out
