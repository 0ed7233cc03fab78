"""Keeps every weight matrix in float32 while g stays float64 (the product is float64): accepted, since the spec allows float32 weights."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        W = rng.normal(0, weight_std, size=(dim, dim)).astype(np.float32)
        g = W @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
