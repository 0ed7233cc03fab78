"""Clips by scaling only the arrays that hold a non-zero entry, and hands the all-zero ones back as they are."""

import math

import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "the caller's zero arrays handed back"
EXPLANATION = ("When it clips, your function returns the caller's own all-zero arrays instead of new ones: their "
               "values are right, but the result shares them with the caller.")
HINT = "Once anything is clipped, the result is new arrays, every one of them, whatever their values."
COMPARE = 'identity'  # its values are the reference's: only the arrays it hands back tell it apart


def clip_by_global_norm(grads, max_norm):
    norm = math.sqrt(sum(float(np.sum(np.square(g))) for g in grads))
    if norm > max_norm:
        scale = max_norm / norm
        return [g * scale if np.any(g) else g for g in grads], norm
    return [np.array(g, dtype=np.float64) for g in grads], norm
