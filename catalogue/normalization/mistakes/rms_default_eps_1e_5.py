"""Gives rms_norm the default eps = 1e-5 (LayerNorm's) instead of 1e-6."""
import numpy as np

KILLED_BY = ("test_rms_norm_default_eps_is_1e_6",)
TITLE = "RMSNorm with LayerNorm's default eps"
EXPLANATION = "Your rms_norm uses LayerNorm's default eps instead of RMSNorm's."
HINT = "Check the default value of eps in rms_norm's signature in the stub: the two functions differ."


def rms_norm(x, eps=1e-5, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
