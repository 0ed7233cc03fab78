"""Gives layer_norm the default eps = 0, so a constant row divides 0 by 0."""
import numpy as np

KILLED_BY = ("test_layer_norm_constant_row_is_all_zeros", "test_layer_norm_default_eps_is_1e_5")
TITLE = 'LayerNorm without a default eps'
EXPLANATION = 'Your layer_norm uses no eps by default, so a constant row divides zero by zero.'
HINT = 'Check the default value of eps in the stub; eps is what keeps a constant row finite.'


def layer_norm(x, eps=0.0, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
