"""Treats a weight_std below 1e-35 as zero and zeroes the weights, though the spec takes any std > 0, tiny ones included."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'tiny stds treated as zero'
EXPLANATION = 'Your function zeroes the weights when weight_std is tiny, so the first layer gives 0.0 instead of a tiny norm.'
HINT = 'Any weight_std > 0 scales the weights, however small: draw and multiply exactly as for ordinary stds.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = rng.normal(0, weight_std, size=(dim, dim))
        if weight_std < 1e-35:
            weights[:] = 0.0
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
