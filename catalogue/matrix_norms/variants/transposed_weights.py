"""Multiplies by the transpose W.T @ g at every layer, which is just the other orientation."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = rng.normal(0.0, weight_std, size=(dim, dim))
        g = weights.T @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
