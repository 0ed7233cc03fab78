"""Records max(norm, 1e-300), so a norm that reaches exactly 0.0 is recorded as 1e-300."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'vanished norms floored at 1e-300'
EXPLANATION = ('Your function never records a norm below 1e-300, but with tiny weights the gradient reaches exactly '
               '0.0, and a tiny norm is compared relatively, as every other one.')
HINT = 'Record each norm as computed, 0.0 included: no floor, no cap, nothing added.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(max(float(np.linalg.norm(g)), 1e-300))
    return norms
