"""Returns the norm as a 0-d numpy array (np.linalg.norm with keepdims, reshaped), not a float."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'the norm returned as an array'
EXPLANATION = 'Your function returns the norm as a 0-d numpy array, where the spec promises a float.'
HINT = 'Read the Output section again: the norm is a Python float.'


def clip_by_global_norm(grads, max_norm):
    flat = np.concatenate([g.ravel() for g in grads])
    norm = np.linalg.norm(flat, keepdims=True)
    if norm[0] > max_norm:
        return [g * (max_norm / norm[0]) for g in grads], norm.reshape(())
    return [g.copy() for g in grads], norm.reshape(())
