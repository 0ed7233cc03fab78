"""Copies the input first and then edits the copy in place, which leaves the caller's array untouched."""
import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = x.copy()
    out -= out.mean(axis=-1, keepdims=True)
    out /= np.sqrt(np.mean(out ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out *= gamma
    if beta is not None:
        out += beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    out = np.array(x, dtype=float)
    out /= np.sqrt(np.mean(out ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out *= gamma
    return out
