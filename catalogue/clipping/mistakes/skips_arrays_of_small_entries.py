"""Skips clipping when every entry is at most max_norm / 10, as if small entries made a small norm."""

import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm", "test_keeps_every_promise_on_every_input",
             "test_matches_reference_on_random_gradients")
TITLE = 'gradients of small entries never clipped'
EXPLANATION = ('Your function leaves the gradients alone when every entry is small, but many small entries make a '
               'large norm: 1000 entries of 0.05 have norm 1.58.')
HINT = 'Decide by the global norm alone: the size of the largest entry says nothing about the length of the whole.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm and max(float(np.max(np.abs(g), initial=0.0)) for g in grads) > max_norm / 10:
        scale = max_norm / norm
        return [np.asarray(g) * scale for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
