"""Exercise 5 - LayerNorm and RMSNorm.  Amara Okafor"""

import numpy as np


def layer_norm(x: np.ndarray, eps: float = 1e-5, gamma: np.ndarray | None = None,
               beta: np.ndarray | None = None) -> np.ndarray:
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)  # ddof=0 -> population variance
    x_hat = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        x_hat = x_hat * gamma
    if beta is not None:
        x_hat = x_hat + beta
    return x_hat


def rms_norm(x: np.ndarray, eps: float = 1e-6, gamma: np.ndarray | None = None) -> np.ndarray:
    mean_sq = np.mean(np.square(x), axis=-1, keepdims=True)
    y = x / np.sqrt(mean_sq + eps)
    if gamma is not None:
        y = y * gamma
    return y
