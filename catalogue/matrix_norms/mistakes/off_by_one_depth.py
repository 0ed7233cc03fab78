"""Runs the loop from 1 to depth - 1, so it passes through one layer too few."""

import numpy as np

KILLED_BY = ("test_returns_depth_plus_one_norms", "test_draws_a_fresh_matrix_for_every_layer")
TITLE = 'one layer too few'
EXPLANATION = 'Your function passes the gradient through one layer fewer than depth.'
HINT = 'Count the layers: depth matrices, one per layer, and a norm after each of them.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(1, depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
