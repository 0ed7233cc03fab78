"""Draws the weights uniformly from [-weight_std, weight_std] instead of from a normal distribution."""

import numpy as np

KILLED_BY = ("test_draws_from_a_normal_distribution_with_mean_zero", "test_norms_follow_from_the_matrices_drawn")
TITLE = 'uniform weights instead of normal ones'
EXPLANATION = 'Your function draws the weights from a uniform range instead of a normal distribution.'
HINT = 'The spec asks for normally distributed weights with mean 0 and standard deviation weight_std.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.uniform(-weight_std, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
