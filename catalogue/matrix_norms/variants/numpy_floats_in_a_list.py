"""Returns a list of np.float64 values computed with np.sqrt(g @ g)."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [np.sqrt(g @ g)]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, (dim, dim)) @ g
        norms.append(np.sqrt(g @ g))
    return norms
