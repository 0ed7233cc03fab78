"""Shifts before scaling, (x_hat + beta) * gamma, so gamma also scales the shift."""
import numpy as np

KILLED_BY = ("test_layer_norm_beta_shifts_each_feature_after_scaling",)


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if beta is not None:
        out = out + beta
    if gamma is not None:
        out = out * gamma
    return out
