"""Handles all-zero gradients by writing zeros into the arrays it was given and returning them."""

import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = 'zero gradients rewritten in place'
EXPLANATION = ('When every gradient is zero, your function writes zeros into the arrays it was given: the values '
               'look the same, but it changes the caller\'s arrays (a negative zero becomes a positive one).')
HINT = 'When the norm is zero there is nothing to scale: return the inputs themselves or new arrays, and never write into the ones you were given.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm == 0.0:
        for g in grads:
            g[...] = 0.0
        return list(grads), 0.0
    if norm <= max_norm:
        return list(grads), norm
    return [g * (max_norm / norm) for g in grads], norm
