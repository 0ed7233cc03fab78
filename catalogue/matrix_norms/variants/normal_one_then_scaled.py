"""Draws N(0, 1) with rng.normal(0, 1, ...) and multiplies by weight_std afterwards, in float64 explicitly."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim, dtype=np.float64)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = (rng.normal(0, 1, size=[dim, dim]) * weight_std) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
