"""The norm as a root mean square times sqrt(dim) (a blind round): right, and as far from
np.linalg.norm as squaring tiny entries in float64 makes it, several percent near 1e-161."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.sqrt(np.mean(g ** 2)) * np.sqrt(dim))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.sqrt(np.mean(g ** 2)) * np.sqrt(dim)))
    return norms
