import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    out = [np.sqrt(np.sum(g ** 2))]
    for _ in range(depth):
        W = weight_std * rng.standard_normal((dim, dim))
        g = W @ g
        out.append(np.sqrt(np.sum(g ** 2)))
    return out
