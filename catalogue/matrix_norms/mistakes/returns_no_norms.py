"""Draws the matrices as asked, but returns an empty list instead of the norms it computed."""

import numpy as np

KILLED_BY = ("test_norms_are_finite_and_non_negative", "test_returns_depth_plus_one_norms")
TITLE = 'no norms returned'
EXPLANATION = 'Your function draws the matrices but returns an empty list, so none of the norms it computed reach the caller.'
HINT = 'Append the norm of the gradient to the list before the loop and after every layer, and return that list.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = []
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
    return norms
