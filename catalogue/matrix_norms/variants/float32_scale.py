"""Passes the standard deviation as a float32, which rounds it by about 1e-8 relative."""
import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, np.float32(weight_std), size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
