import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    y = (x - mu) / (std + eps)   # eps so we never divide by 0
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x, eps=1e-6, gamma=None):
    rms = np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    y = x / rms
    if gamma is not None:
        y = gamma * y
    return y
