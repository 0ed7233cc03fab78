"""Fills each new array through arr.reshape(-1): a view for a C-ordered array, but a copy for one in Fortran order (a transposed array), so the new array is left unfilled."""

import math

import numpy as np

KILLED_BY = ("test_arrays_in_any_memory_layout_are_clipped_alike",)
TITLE = 'writes the result into a reshape that is a copy'
EXPLANATION = ('Your function fills each new array through a flattened reshape of it. For an array stored in Fortran '
               'order, as a transposed array is, that reshape is a copy: the values go into the copy, and the array '
               'you return holds whatever the memory held before.')
HINT = 'Scale each array as a whole (grad * scale) and return that: it works for any memory layout.'


def clip_by_global_norm(grads, max_norm):
    norm = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
    scale = max_norm / norm if norm > max_norm else 1.0
    clipped = []
    for g in grads:
        out = np.empty_like(g)
        out.reshape(-1)[:] = g.reshape(-1) * scale
        clipped.append(out)
    return clipped, norm
