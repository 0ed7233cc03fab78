import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    # start from the all-ones gradient
    g = np.ones(dim)
    norms = [np.linalg.norm(g)]

    # one new random matrix per layer
    for d in range(depth):
        W = weight_std * rng.standard_normal(size=(dim, dim))
        g = W.dot(g)
        norms.append(np.linalg.norm(g))

    return norms
