"""Draws standard normal matrices and forgets to multiply them by weight_std."""

import numpy as np

KILLED_BY = ("test_each_layer_scales_the_norm_by_about_std_sqrt_dim", "test_small_weights_make_the_gradient_vanish",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = 'weights not scaled by weight_std'
EXPLANATION = 'Your function draws standard normal weights and never scales them by weight_std.'
HINT = 'The weights must have standard deviation weight_std; a standard normal draw has standard deviation 1.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.standard_normal((dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
