"""Scales an array in place, and returns it, where it is not C-contiguous (Fortran-ordered or transposed)."""
import math

import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "column-major arrays scaled in place"
EXPLANATION = ("Your function builds new arrays for row-major (C-ordered) gradients but scales the others, "
               "Fortran-ordered or transposed ones, in place: the caller's gradients change whenever clipping "
               "happens on such an array.")
HINT = ("The spec allows any memory layout and says no array may be modified: build every clipped array as a new "
        "one, whatever its layout.")


def clip_by_global_norm(grads, max_norm):
    norm = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
    if norm > max_norm:
        scale = max_norm / norm
        clipped = []
        for g in grads:
            if g.flags.c_contiguous:
                clipped.append(g * scale)
            else:
                g *= scale
                clipped.append(g)
        return clipped, norm
    return [g.copy() for g in grads], norm
