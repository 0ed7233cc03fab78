"""Zeroes every row past the 256th of each matrix when dim is over 256, as if the vector held at most 256 entries."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'rows past 256 dropped'
EXPLANATION = 'Your function uses only a 256 x 256 block of each matrix, so for dim over 256 the norms come out too small.'
HINT = 'dim is any int >= 1: multiply by the whole (dim, dim) matrix whatever its size.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = rng.normal(0, weight_std, size=(dim, dim))
        if dim > 256:
            weights[256:, :] = 0.0
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
