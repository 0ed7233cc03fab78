"""Passes weight_std as the first argument of rng.normal, which is the mean, leaving the scale at 1."""

import numpy as np

KILLED_BY = ("test_draws_from_a_normal_distribution_with_mean_zero", "test_each_layer_scales_the_norm_by_about_std_sqrt_dim",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = 'weight_std passed as the mean'
EXPLANATION = 'Your function passes weight_std where the normal sampler expects the mean, so the weights are centred on weight_std with standard deviation 1.'
HINT = "Check the order of the normal sampler's parameters in numpy's documentation: which one is the spread?"


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
