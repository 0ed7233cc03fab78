# Kofi Mensah
# Exercise: LayerNorm and RMSNorm
import numpy as np


def layer_norm(x: np.ndarray, eps: float = 1e-5, gamma=None, beta=None) -> np.ndarray:
    d = x.shape[-1]
    mean = np.sum(x, axis=-1, keepdims=True) / d
    var = np.sum((x - mean) ** 2, axis=-1, keepdims=True) / d
    out = (x - mean) / np.sqrt(var + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x: np.ndarray, eps: float = 1e-6, gamma=None) -> np.ndarray:
    d = x.shape[-1]
    rms = np.sqrt(np.sum(x ** 2, axis=-1, keepdims=True) / d + eps)
    out = x / rms
    if gamma is not None:
        out = out * gamma
    return out
