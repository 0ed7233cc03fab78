# Kofi Mensah
# Exercise: gradient norms through random matrices
import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    gradient = np.ones(dim)
    norms = [np.linalg.norm(gradient)]
    weights = [rng.normal(0.0, weight_std, size=(dim, dim)) for _ in range(depth)]
    for W in weights:
        gradient = W @ gradient
        norms.append(np.linalg.norm(gradient))
    return norms
