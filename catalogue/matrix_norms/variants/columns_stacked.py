"""Builds each matrix from dim columns drawn one at a time and joined with np.column_stack."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [np.linalg.norm(g)]
    for _ in range(depth):
        weights = np.column_stack([rng.normal(0, weight_std, dim) for _ in range(dim)])
        g = weights @ g
        norms.append(np.linalg.norm(g))
    return norms
