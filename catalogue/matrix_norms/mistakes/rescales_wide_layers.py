"""Multiplies every norm by 1.001 when dim is over 100."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'wide layers handled differently'
EXPLANATION = 'For large dim your function changes the norms it records, so they no longer follow from the matrices drawn.'
HINT = 'The same product and the same norm serve every dim, large ones included: no special case for wide layers.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    factor = 1.001 if dim > 100 else 1.0
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g)) * factor]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)) * factor)
    return norms
