"""Flattens the leading axes into rows, normalizes each 1-D row in a loop, and restores the shape."""
import math

import numpy as np


def _layer_norm_row(r, eps):
    mu = sum(r) / len(r)
    var = sum((v - mu) ** 2 for v in r) / len(r)
    return [(v - mu) / math.sqrt(var + eps) for v in r]


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    rows = x.reshape(-1, x.shape[-1])
    out = np.array([_layer_norm_row(list(r), eps) for r in rows], dtype=float).reshape(x.shape)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    out = np.apply_along_axis(lambda r: r / math.sqrt(float(np.dot(r, r)) / r.size + eps), -1, x)
    if gamma is not None:
        out = out * gamma
    return out
