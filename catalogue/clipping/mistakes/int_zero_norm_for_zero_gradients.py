"""Returns the int 0 as the norm of all-zero gradients, where the spec promises the float 0.0."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'an integer norm for zero gradients'
EXPLANATION = 'For all-zero gradients your function returns the integer 0 as the norm, where the spec promises a float.'
HINT = 'Read the Output section again: the norm is a float in every case, including zero gradients.'


def clip_by_global_norm(grads, max_norm):
    total = sum(float(np.sum(g * g)) for g in grads)
    if total == 0:
        return [g.copy() for g in grads], 0
    norm = total ** 0.5
    if norm > max_norm:
        s = max_norm / norm
        return [g * s for g in grads], norm
    return [g.copy() for g in grads], norm
