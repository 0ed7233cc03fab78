import numpy as np


def _norm(v):
    return float(np.sqrt(v @ v))


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [_norm(g)]
    layer = 0
    while layer < depth:
        weights = rng.normal(0, weight_std, (dim, dim))
        g = weights @ g
        norms.append(_norm(g))
        layer += 1
    return norms
