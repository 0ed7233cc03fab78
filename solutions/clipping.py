"""Reference solution: clipping a list of gradients by their global norm."""

import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm:
        scale = max_norm / norm
        return [np.asarray(g) * scale for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
