"""Builds both norms from np.std: sqrt(std ** 2 + eps) is the same denominator as sqrt(var + eps)."""
import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    std = np.std(x, axis=-1, keepdims=True)
    out = (x - np.mean(x, axis=-1, keepdims=True)) / np.sqrt(std ** 2 + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
