"""Clips once the norm passes max_norm * (1 - 1e-10): a norm 5e-11 under the limit is scaled UP by
5e-11, far past any rounding of a norm that is right (a blind round's margin)."""

import numpy as np

KILLED_BY = ("test_under_the_limit_the_values_are_unchanged",)
TITLE = 'a norm just under the limit scaled up to it'
EXPLANATION = ('Your function clips from a little under max_norm on, so a gradient whose norm is just below the '
               'limit is scaled up to it instead of coming back unchanged.')
HINT = 'Compare the norm with max_norm itself, with no margin: under the limit nothing changes, and nothing is ever scaled up.'
SAME_AS = ('clips_from_just_under_the_limit',)


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm * (1 - 1e-10):
        return [np.asarray(g) * (max_norm / norm) for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
