"""Scales the caller's arrays in place (g *= scale) and returns them, destroying the raw gradients."""
import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "the caller's gradients overwritten"
EXPLANATION = ("Your function overwrites the caller's gradients with the clipped ones (by scaling the arrays in "
               "place, or by putting new arrays into the caller's list), so the originals are lost.")
HINT = 'Return new arrays and leave the inputs untouched, as the spec asks.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    if norm > max_norm:
        for g in grads:
            g *= max_norm / norm
    return grads, norm
