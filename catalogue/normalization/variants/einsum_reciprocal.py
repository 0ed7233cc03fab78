"""Gets the sums of squares with einsum and multiplies by a precomputed 1 / sqrt(...)."""
import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    d = x.shape[-1]
    centred = x - np.einsum("...i->...", x)[..., None] / d
    var = np.einsum("...i,...i->...", centred, centred)[..., None] / d
    inv = 1.0 / np.sqrt(var + eps)
    out = centred * inv
    if gamma is not None:
        out = np.einsum("...i,i->...i", out, gamma)
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    mean_square = np.einsum("...i,...i->...", x, x)[..., None] / x.shape[-1]
    out = x * (1.0 / np.sqrt(mean_square + eps))
    if gamma is not None:
        out = out * gamma
    return out
