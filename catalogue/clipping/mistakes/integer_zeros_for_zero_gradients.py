"""Answers all-zero gradients with integer zeros (np.zeros(shape, dtype=int)) instead of float64 ones."""
import numpy as np

KILLED_BY = ("test_all_zero_gradients_return_zeros_without_warning",)
TITLE = "integer zeros"
EXPLANATION = ("Your function returns integer arrays when every gradient is zero: they compare equal to the zeros "
               "expected, but an update made with them is not the float64 update the other paths give.")
HINT = "Return float64 arrays on every path: zeros of the dtype you were given, or the arrays themselves."


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    if norm == 0.0:
        return [np.zeros(g.shape, dtype=int) for g in grads], norm
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
