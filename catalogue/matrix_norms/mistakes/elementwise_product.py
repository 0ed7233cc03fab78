"""Multiplies element-wise (W * g) instead of taking the matrix product W @ g."""

import numpy as np

KILLED_BY = ("test_large_weights_make_the_gradient_explode", "test_each_layer_scales_the_norm_by_about_std_sqrt_dim",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = 'an element-wise product instead of a matrix product'
EXPLANATION = 'Your function multiplies the weights and the gradient entry by entry instead of taking the matrix-vector product.'
HINT = 'Backpropagating through a linear layer is a matrix-vector product; reread how the spec says each layer acts.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) * g
        norms.append(float(np.linalg.norm(g)))
    return norms
