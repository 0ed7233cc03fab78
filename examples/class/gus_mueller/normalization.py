import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    out = (x - mean) / np.sqrt(var + eps
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    out = x / np.sqrt(ms + eps)
    if gamma is not None:
        out = out * gamma
    return out
