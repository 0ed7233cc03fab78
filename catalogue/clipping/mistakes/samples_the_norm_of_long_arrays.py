"""Estimates the norm of an array of more than 4096 entries from every other entry (times 2), to save time."""

import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping", "test_matches_reference_on_random_gradients")
TITLE = 'norm of long arrays estimated from a sample'
EXPLANATION = ('Your function measures long arrays from a sample of their entries, but the global norm is the '
               'square root of the sum of the squares of every entry of every array, however long it is.')
HINT = 'Square every entry of every array, whatever its length, add them all up and take one square root.'


def clip_by_global_norm(grads, max_norm):
    total = 0.0
    for g in grads:
        flat = np.ravel(g)
        total += 2.0 * float(np.sum(np.square(flat[::2]))) if flat.size > 4096 else float(np.sum(np.square(flat)))
    norm = float(np.sqrt(total))
    if norm > max_norm:
        return [np.asarray(g) * (max_norm / norm) for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
