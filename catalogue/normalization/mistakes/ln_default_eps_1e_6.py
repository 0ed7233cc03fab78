"""Gives layer_norm the default eps = 1e-6 (RMSNorm's) instead of 1e-5."""
import numpy as np

KILLED_BY = ("test_layer_norm_default_eps_is_1e_5",)
TITLE = "LayerNorm with RMSNorm's default eps"
EXPLANATION = "Your layer_norm uses RMSNorm's default eps instead of LayerNorm's."
HINT = "Check the default value of eps in layer_norm's signature in the stub: the two functions differ."


def layer_norm(x, eps=1e-6, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
