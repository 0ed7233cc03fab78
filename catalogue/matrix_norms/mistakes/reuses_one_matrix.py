"""Draws one matrix before the loop and multiplies by that same matrix at every layer."""

import numpy as np

KILLED_BY = ("test_draws_a_fresh_matrix_for_every_layer", "test_norms_follow_from_the_matrices_drawn")
TITLE = 'one weight matrix reused at every layer'
EXPLANATION = 'Your function draws one weight matrix and uses that same matrix at every layer.'
HINT = 'Every layer has its own weights: draw a fresh matrix for each layer.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    weights = rng.normal(0.0, weight_std, size=(dim, dim))
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
