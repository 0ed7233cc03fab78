"""Exercise 2 - gradient norms through random matrices.  Amara Okafor"""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [np.linalg.norm(g)]

    if depth == 0:
        return norms

    # draw every layer's weights in one go: shape (depth, dim, dim), one fresh matrix per layer
    all_weights = rng.normal(0, weight_std, size=(depth, dim, dim))

    for W in all_weights:
        g = g @ W          # row-vector convention, g (dim,) times W (dim, dim)
        norms.append(np.linalg.norm(g))

    return norms
