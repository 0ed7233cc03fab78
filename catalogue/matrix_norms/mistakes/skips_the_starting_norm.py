"""Records the norm only after each layer, leaving out the starting norm: depth norms instead of depth + 1."""

import numpy as np

KILLED_BY = ("test_returns_depth_plus_one_norms", "test_starts_with_the_norm_of_ones",
             "test_zero_layers_return_only_the_starting_norm")
TITLE = 'the starting norm left out'
EXPLANATION = 'Your function records the norm only after each layer and leaves out the norm of the starting gradient.'
HINT = 'The spec asks for depth + 1 norms: the starting one, then one after every layer.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = []
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
