"""Draws every weight with its own scalar rng.normal call in a nested loop."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = np.empty((dim, dim))
        for i in range(dim):
            for j in range(dim):
                weights[i, j] = rng.normal(0.0, weight_std)
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
