import numpy as np


def _row_stats(x):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return mu, var


def layer_norm(x: np.ndarray, eps: float = 1e-5, gamma: np.ndarray | None = None,
               beta: np.ndarray | None = None) -> np.ndarray:
    mu, var = _row_stats(x)
    y = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x: np.ndarray, eps: float = 1e-6, gamma: np.ndarray | None = None) -> np.ndarray:
    y = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        y = y * gamma
    return y
