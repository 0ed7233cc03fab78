"""Passes the variance weight_std ** 2 where rng.normal expects the standard deviation."""

import numpy as np

KILLED_BY = ("test_weights_use_the_std_not_the_variance", "test_each_layer_scales_the_norm_by_about_std_sqrt_dim",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = 'the variance passed as the standard deviation'
EXPLANATION = 'Your function passes the variance where the sampler expects the standard deviation.'
HINT = "numpy's normal sampler takes the standard deviation as its scale, not the variance."


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std ** 2, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
