"""Treats gradients whose norm is under 1e-12 as zero, so tiny gradients come back as zeros with norm 0.0."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(np.sum(g ** 2) for g in grads)))
    if norm < 1e-12:
        return [np.zeros_like(g) for g in grads], 0.0
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
