"""Clips once the norm reaches max_norm * (1 - 1e-7): a norm just under the limit is scaled UP to it."""

import numpy as np

KILLED_BY = ("test_under_the_limit_the_values_are_unchanged", "test_keeps_every_promise_on_every_input",
             "test_matches_reference_on_random_gradients")
TITLE = 'a norm just under the limit scaled up to it'
EXPLANATION = ('Your function clips from a little under max_norm on, so a gradient whose norm is just below the '
               'limit is scaled up to it instead of coming back unchanged.')
HINT = 'Compare the norm with max_norm itself, with no margin: under the limit nothing changes, and nothing is ever scaled up.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm >= max_norm * (1 - 1e-7):
        return [np.asarray(g) * (max_norm / norm) for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
