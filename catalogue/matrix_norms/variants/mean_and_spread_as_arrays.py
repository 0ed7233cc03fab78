"""Gives rng.normal the mean as an array of zeros shaped like the matrix, and no size: numpy draws the same matrix as with size=(dim, dim)."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        W = rng.normal(np.zeros((dim, dim)), weight_std)
        g = W @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
