"""Records min(norm, 1e50), so norms past 1e50 are capped in the list."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'norms past 1e50 capped'
EXPLANATION = 'Your function caps the norms it records, so an exploding gradient never shows how far it grows.'
HINT = 'Record every norm as it is, however large, in float64: the spec asks for no cap and no rescaling.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(min(float(np.linalg.norm(g)), 1e50))
    return norms
