"""Passes weight_std as the first argument of rng.normal, which is the mean, leaving the scale at 1."""

import numpy as np

KILLED_BY = ("test_draws_from_a_normal_distribution_with_mean_zero", "test_each_layer_scales_the_norm_by_about_std_sqrt_dim",
             "test_norms_follow_from_the_matrices_drawn")


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
