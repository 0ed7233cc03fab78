"""Adds a tiny epsilon (1e-12) to the norm before dividing, which only shows on gradients of tiny length."""
import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm",)
TITLE = 'a tiny epsilon added to the norm'
EXPLANATION = 'Your function adds a tiny epsilon to the norm before dividing, which shows on gradients of tiny length.'
HINT = "The spec's rule has no epsilon; handle the zero norm on its own instead."


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    scale = min(1.0, max_norm / (norm + 1e-12))
    return [np.asarray(g) * scale for g in grads], norm
