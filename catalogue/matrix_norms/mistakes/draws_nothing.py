"""Never draws from rng: every layer multiplies by the identity, so every norm is sqrt(dim)."""

import numpy as np

KILLED_BY = ("test_draws_from_a_normal_distribution_with_mean_zero", "test_weights_use_the_std_not_the_variance")
TITLE = 'no weights drawn'
EXPLANATION = ('Your function never draws a weight matrix from rng, so the gradient never changes from layer to layer '
               'and every norm is the starting one.')
HINT = 'Draw a fresh (dim, dim) weight matrix from the rng you are given for every layer.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    return [float(np.linalg.norm(g))] * (depth + 1)
