"""Draws nothing: returns the norms a layer multiplies by weight_std * sqrt(dim) on average would give."""

import math

KILLED_BY = ("test_uses_the_passed_in_rng", "test_draws_a_fresh_matrix_for_every_layer",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = "the average growth computed instead of drawn"
EXPLANATION = ("Your function computes the norms from the average growth per layer (weight_std times the square "
               "root of dim) without drawing any matrix, and random layers do not grow the norm by exactly that.")
HINT = ("Draw a fresh random matrix from rng for every layer and multiply the gradient by it: the exercise is to "
        "watch what random layers actually do to the norm.")


def matrix_gradient_norms(depth, dim, weight_std, rng):
    start = math.sqrt(dim)
    return [start * (weight_std * math.sqrt(dim)) ** layer for layer in range(depth + 1)]
