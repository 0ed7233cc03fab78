import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    result = [np.linalg.norm(g)]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        result.append(np.linalg.norm(g))
    return result
