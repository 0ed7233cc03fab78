"""Adds up np.sum(g ** 2) per array, takes one square root, and returns the input list itself when not clipping."""
import math

import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = math.sqrt(sum(np.sum(g ** 2) for g in grads))
    if norm <= max_norm:
        return grads, norm
    return [g * (max_norm / norm) for g in grads], norm
