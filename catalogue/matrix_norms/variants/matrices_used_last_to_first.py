"""Draws all matrices at once and uses them last to first, which the contract (fresh i.i.d. matrices) allows."""

import numpy as np
def matrix_gradient_norms(depth, dim, weight_std, rng):
    Ws = rng.normal(0, weight_std, size=(depth, dim, dim))
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for W in Ws[::-1]:
        g = W @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
