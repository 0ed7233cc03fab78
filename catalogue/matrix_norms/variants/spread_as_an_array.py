"""Gives rng.normal the standard deviation as a (dim, dim) array filled with weight_std, and the size as well."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        W = rng.normal(loc=0.0, scale=np.full((dim, dim), weight_std), size=(dim, dim))
        g = W @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
