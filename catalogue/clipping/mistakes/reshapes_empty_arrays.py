"""Flattens the caller's arrays that hold no entries (shape (2, 0) made (0,)) before clipping."""
import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "the caller's empty arrays reshaped"
EXPLANATION = ("Your function changes the shape of the arrays it was given that hold no entries: a (2, 0) array "
               "comes back to the caller as (0,), though neither the list nor its arrays may be modified.")
HINT = "Leave every array you were given as it came, its shape included: an empty one adds nothing and needs no tidying."


def clip_by_global_norm(grads, max_norm):
    for g in grads:
        if g.size == 0:
            g.shape = (0,)
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    if norm <= max_norm:
        return [g.copy() for g in grads], norm
    return [g * (max_norm / norm) for g in grads], norm
