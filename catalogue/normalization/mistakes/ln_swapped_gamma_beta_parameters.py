"""Declares beta before gamma, so a call by position uses the shift as the scale and the scale as the shift."""
import numpy as np

KILLED_BY = ("test_layer_norm_beta_shifts_each_feature_after_scaling",)
TITLE = "LayerNorm's gamma and beta parameters swapped"
EXPLANATION = 'Your layer_norm declares beta before gamma, so a call by position uses the shift as the scale and the scale as the shift.'
HINT = "Keep the parameter order of the stub's signature."


def layer_norm(x, eps=1e-5, beta=None, gamma=None):
    mean = x.mean(axis=-1, keepdims=True)
    out = (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
