"""Allocates far more memory than the machine should give one student."""
import numpy as np

_HOARD = []


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    while True:
        _HOARD.append(np.ones(50_000_000))


def rms_norm(x, eps=1e-6, gamma=None):
    return np.ones((8 * 1024**3) // 8).reshape(-1)[: x.size].reshape(x.shape)
