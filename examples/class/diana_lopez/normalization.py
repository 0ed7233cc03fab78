import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    """LayerNorm over the last axis."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    normed = (x - mean) / np.sqrt(var + eps)
    if gamma is not None:
        normed = normed * gamma
    if beta is not None:
        normed = normed + beta
    return normed


def rms_norm(x, eps=1e-6, gamma=None):
    """RMSNorm over the last axis."""
    # center first so the rms isn't dominated by an offset
    centered = x - np.mean(x, axis=-1, keepdims=True)
    rms = np.sqrt(np.mean(centered ** 2, axis=-1, keepdims=True) + eps)
    out = centered / rms
    if gamma is not None:
        out = out * gamma
    return out
