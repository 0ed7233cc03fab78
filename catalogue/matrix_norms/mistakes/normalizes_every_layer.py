"""Rescales g to length 1 after every layer, so the per-layer factors never compound."""

import numpy as np

KILLED_BY = ("test_small_weights_make_the_gradient_vanish", "test_large_weights_make_the_gradient_explode",
             "test_each_layer_scales_the_norm_by_about_std_sqrt_dim")
TITLE = 'the gradient renormalized at every layer'
EXPLANATION = 'Your function rescales the gradient to length 1 after every layer, so the per-layer factors never compound.'
HINT = 'The point of the exercise is that the factors compound from layer to layer; let the gradient keep its length.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
        g = g / np.linalg.norm(g)
    return norms
