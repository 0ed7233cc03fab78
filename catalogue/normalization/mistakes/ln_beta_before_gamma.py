"""Shifts before scaling, (x_hat + beta) * gamma, so gamma also scales the shift."""
import numpy as np

KILLED_BY = ("test_layer_norm_beta_shifts_each_feature_after_scaling",)
TITLE = 'LayerNorm shifts before it scales'
EXPLANATION = 'Your layer_norm adds beta before multiplying by gamma, so gamma also scales the shift.'
HINT = 'Reread the order in the spec: normalize, then scale by gamma, then shift by beta.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if beta is not None:
        out = out + beta
    if gamma is not None:
        out = out * gamma
    return out
