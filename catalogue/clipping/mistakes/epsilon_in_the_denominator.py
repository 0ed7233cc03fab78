"""Copies PyTorch's max_norm / (norm + 1e-6) and applies it whenever it is below 1, which shrinks gradients at the
limit and leaves clipped ones slightly short of max_norm."""
import numpy as np

KILLED_BY = ("test_exactly_at_the_limit_the_values_are_unchanged",
             "test_above_the_limit_the_combined_length_becomes_max_norm")
TITLE = 'an epsilon added to the norm'
EXPLANATION = 'Your function adds a small epsilon to the norm before dividing, which shrinks gradients at the limit and leaves clipped ones slightly short of max_norm.'
HINT = "The spec's rule has no epsilon: at or under the limit nothing changes, and above it the result has length exactly max_norm."


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    coefficient = max_norm / (norm + 1e-6)
    if coefficient < 1:
        return [g * coefficient for g in grads], norm
    return [g.copy() for g in grads], norm
