"""Records the squared norm g @ g instead of the norm."""

import numpy as np

KILLED_BY = ("test_starts_with_the_norm_of_ones", "test_each_layer_scales_the_norm_by_about_std_sqrt_dim")
TITLE = 'squared norms'
EXPLANATION = 'Your function records the squared length of the gradient instead of its length.'
HINT = 'The norm is the square root of the sum of squares.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(g @ g)]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(g @ g))
    return norms
