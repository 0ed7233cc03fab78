import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    """Backprop a ones vector through `depth` random layers and track the norm."""
    g = np.ones(dim)
    norms = []
    for layer in range(depth):
        W = rng.normal(0.0, weight_std, size=(dim, dim))
        g = W @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
