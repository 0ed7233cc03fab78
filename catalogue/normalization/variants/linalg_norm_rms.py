"""Gets the root-mean-square from np.linalg.norm along the last axis: mean(x ** 2) = norm ** 2 / d."""
import numpy as np


def rms_norm(x, eps=1e-6, gamma=None):
    norm = np.linalg.norm(x, axis=-1, keepdims=True)
    out = x / np.sqrt(norm ** 2 / x.shape[-1] + eps)
    return out if gamma is None else out * gamma
