import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    xc = x - x.mean(-1, keepdims=True)
    y = xc / np.sqrt((xc * xc).mean(-1, keepdims=True) + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x, eps=1e-6, gamma=None):
    y = x / np.sqrt((x * x).mean(-1, keepdims=True) + eps)
    return y * gamma if gamma is not None else y
