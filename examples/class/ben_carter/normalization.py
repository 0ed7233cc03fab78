import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    var = (centered ** 2).mean(axis=-1, keepdims=True)
    out = centered / np.sqrt(var + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    rms = np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    out = x / rms
    if gamma is not None:
        out = out * gamma
    return out
