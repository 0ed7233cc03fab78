"""Starts from a random gradient drawn from rng instead of a vector of ones."""

import numpy as np

KILLED_BY = ("test_starts_with_the_norm_of_ones", "test_draws_a_fresh_matrix_for_every_layer")
TITLE = 'a random starting gradient'
EXPLANATION = 'Your function starts from a random gradient instead of the vector of ones the spec asks for.'
HINT = 'Reread where the gradient starts in the spec: the first norm is the norm of that starting vector.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = rng.standard_normal(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
