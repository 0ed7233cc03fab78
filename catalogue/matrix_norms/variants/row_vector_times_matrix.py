"""Treats the gradient as a row vector and multiplies g @ W, the other orientation."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = g @ rng.normal(loc=0.0, scale=weight_std, size=(dim, dim))
        norms.append(float(np.linalg.norm(g)))
    return norms
