"""Adds beta only inside the gamma branch, so a beta given without gamma is ignored."""
import numpy as np

KILLED_BY = ("test_layer_norm_gamma_and_beta_are_optional",)
TITLE = 'LayerNorm adds beta only together with gamma'
EXPLANATION = 'Your layer_norm adds beta only when gamma is given too, so a beta passed alone is ignored.'
HINT = 'gamma and beta are independent: either may be given without the other.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
        if beta is not None:
            out = out + beta
    return out
