"""Flattens each array in memory order (ravel(order='K')) and reshapes it back in C order: right for C-ordered arrays, transposed values for one in Fortran order."""

import numpy as np

KILLED_BY = ("test_arrays_in_any_memory_layout_are_clipped_alike",)
TITLE = 'arrays flattened in memory order'
EXPLANATION = ('Your function flattens each array in the order its numbers lie in memory and reshapes it back row by '
               'row. For an array stored in Fortran order, as a transposed array is, that puts its values in the '
               'wrong places.')
HINT = 'Scale each array as a whole (grad * scale), keeping its shape, whatever its memory layout.'


def clip_by_global_norm(grads, max_norm):
    flat = [g.ravel(order="K") for g in grads]
    norm = float(np.sqrt(sum(float(np.sum(f * f)) for f in flat)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return [(f * scale).reshape(g.shape) for f, g in zip(flat, grads)], norm
