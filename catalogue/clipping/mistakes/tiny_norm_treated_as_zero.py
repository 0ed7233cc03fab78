"""Treats gradients whose norm is under 1e-12 as zero, so tiny gradients come back as zeros with norm 0.0."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'tiny gradients treated as zero'
EXPLANATION = 'Your function treats gradients of very small norm as zero and returns zeros for them.'
HINT = 'Only an exactly zero gradient has norm 0; tiny gradients are under the limit and come back unchanged.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(np.sum(g ** 2) for g in grads)))
    if norm < 1e-12:
        return [np.zeros_like(g) for g in grads], 0.0
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
