"""Draws the matrices with the global np.random.normal instead of the rng it was given."""

import numpy as np

KILLED_BY = ("test_uses_the_passed_in_rng", "test_draws_a_fresh_matrix_for_every_layer",
             "test_norms_follow_from_the_matrices_drawn")
TITLE = "weights not drawn from rng"
EXPLANATION = ("Your function draws nothing with the rng it was given: its weights come from somewhere else, "
               "such as numpy's global random generator or a generator of its own (even one built on rng's bit "
               "generator).")
# Its norms come from the worker's global generator, which no replay reproduces: only the draws
# on rng (none) and the shapes of what it returns are compared.
COMPARE = 'shapes'
HINT = 'Draw every random number with the methods of the rng argument itself, so the same rng always gives the same result.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = np.random.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
