"""Saves rng's state before drawing and puts it back afterwards, so the caller's next call draws the same matrices."""

import numpy as np

KILLED_BY = ("test_draws_a_fresh_matrix_for_every_layer",)
TITLE = "rng's state put back"
EXPLANATION = ("Your function puts rng back where it found it after drawing, so the caller's next call draws the "
               "very same matrices instead of fresh ones.")
HINT = "Drawing from rng is meant to move it on: leave its state where your draws take it."


def matrix_gradient_norms(depth, dim, weight_std, rng):
    saved = rng.bit_generator.state
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    rng.bit_generator.state = saved
    return norms
