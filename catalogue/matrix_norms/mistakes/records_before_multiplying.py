"""Records each layer's norm before multiplying by its matrix, so every norm lags one layer behind."""

import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'each norm recorded one layer late'
EXPLANATION = "Your function records each layer's norm before multiplying by its matrix, so every norm lags one layer behind."
HINT = 'After layer k the list should hold the norm of the gradient that has passed through k matrices.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        norms.append(float(np.linalg.norm(g)))
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
    return norms
