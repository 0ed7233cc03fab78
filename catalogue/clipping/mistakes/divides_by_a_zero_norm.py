"""Computes min(1, max_norm / norm) without a guard, so all-zero gradients divide by zero and warn."""
import numpy as np

KILLED_BY = ("test_all_zero_gradients_return_zeros_without_warning",)
TITLE = 'a division by a zero norm'
EXPLANATION = 'Your function divides by the norm even when every gradient is zero, which makes numpy warn about a division by zero.'
HINT = 'All-zero gradients have norm 0: decide the scale without dividing by it in that case.'


def clip_by_global_norm(grads, max_norm):
    norm = np.sqrt(sum(np.sum(g ** 2) for g in grads))
    scale = min(1.0, max_norm / norm)
    return [g * scale for g in grads], float(norm)
