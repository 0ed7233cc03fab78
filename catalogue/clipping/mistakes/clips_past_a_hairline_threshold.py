"""Clips only once the norm is past max_norm * (1 + 1e-8): a blind round's threshold, too fine for a
norm 2e-8 over the limit, but a norm 2e-9 over is kept and its length is off by twice what a norm may be."""

import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm",)
TITLE = 'a norm just above the limit left unclipped'
EXPLANATION = 'Your function clips only when the norm is past the limit by some margin, so a norm just above it is kept.'
HINT = 'Clip whenever the norm is above max_norm, however little: there is no threshold.'
SAME_AS = ('clips_past_a_threshold',)


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(np.sum(np.asarray(g, dtype=float) ** 2) for g in grads)))
    if norm > max_norm * (1 + 1e-8):
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
