"""Measures np.linalg.norm of all arrays raveled and concatenated, and returns that np.float64 as the norm."""
import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = np.linalg.norm(np.concatenate([g.ravel() for g in grads]))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
