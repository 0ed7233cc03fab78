"""Adds a tiny epsilon (1e-12) to the norm before dividing, which only shows on gradients of tiny length."""
import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm",)


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    scale = min(1.0, max_norm / (norm + 1e-12))
    return [np.asarray(g) * scale for g in grads], norm
