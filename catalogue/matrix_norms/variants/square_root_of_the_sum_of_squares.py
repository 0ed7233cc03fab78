"""Computes each norm as the square root of the sum of squares, as np.linalg.norm does for a vector."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.sqrt(np.sum(g ** 2)))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.sqrt(np.sum(g ** 2))))
    return norms
