"""Draws all depth matrices in one rng.normal call of shape (depth, dim, dim) and walks through them."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    stack = rng.normal(0, weight_std, (depth, dim, dim))
    g = np.ones(dim)
    norms = [np.linalg.norm(g)]
    for weights in stack:
        g = weights @ g
        norms.append(np.linalg.norm(g))
    return norms
