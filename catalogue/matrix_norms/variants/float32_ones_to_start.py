"""Starts from ones in float32: the starting norm is sqrt(dim) rounded to float32 (within a relative 1e-7), and every layer after it is float64."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim, dtype=np.float32)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
