"""Records log10 of each norm, as a log-scale plot would show it, instead of the norm itself."""

import numpy as np

KILLED_BY = ("test_starts_with_the_norm_of_ones", "test_norms_are_finite_and_non_negative")
TITLE = 'the logarithm of each norm recorded'
EXPLANATION = 'Your function records the logarithm of each norm, as a log-scale plot would show it, instead of the norm itself.'
HINT = 'Return the norms themselves; a log scale is only a way of drawing them.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.log10(np.linalg.norm(g)))]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.log10(np.linalg.norm(g))))
    return norms
