# Chen Wei - HW3 part 5
import numpy as np


def layer_norm(x: np.ndarray, eps: float = 1e-5, gamma=None, beta=None) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    sigma2 = x.var(axis=-1, ddof=1, keepdims=True)  # unbiased estimate of the variance
    y = (x - mu) / np.sqrt(sigma2 + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x: np.ndarray, eps: float = 1e-6, gamma=None) -> np.ndarray:
    ms = np.mean(x * x, axis=-1, keepdims=True)
    y = x / np.sqrt(ms + eps)
    return y if gamma is None else y * gamma
