"""Draws all depth matrices in one call but multiplies by the first of them at every layer."""

import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'all matrices drawn, only the first one used'
EXPLANATION = 'Your function draws a matrix for every layer but multiplies by the first of them at every layer.'
HINT = 'Every layer has its own weight matrix: layer k should use the k-th matrix drawn.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    stack = rng.normal(0.0, weight_std, size=(depth, dim, dim))
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = stack[0] @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
