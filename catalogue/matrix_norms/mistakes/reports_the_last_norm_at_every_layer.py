"""Passes the gradient through every layer first, then reports that last norm for every layer."""

import numpy as np

KILLED_BY = ("test_small_weights_make_the_gradient_vanish", "test_large_weights_make_the_gradient_explode",
             "test_starts_with_the_norm_of_ones")
TITLE = 'the last norm reported for every layer'
EXPLANATION = ("Your function reports the same norm for every layer, the one after the last matrix, so the list "
               "never shows the gradient growing or shrinking.")
HINT = 'Record the norm before any layer, then once more after each matrix, as the gradient passes through it.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
    return [float(np.linalg.norm(g))] * (depth + 1)
