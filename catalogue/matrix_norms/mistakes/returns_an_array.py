"""Returns the norms as a numpy array instead of a list."""

import numpy as np

KILLED_BY = ("test_returns_a_list_of_floats",)
TITLE = 'a numpy array instead of a list'
EXPLANATION = 'Your function returns the norms as a numpy array, where the contract asks for a list of floats.'
HINT = 'Read the Output section again: a list of Python floats.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [np.linalg.norm(g)]
    for _ in range(depth):
        g = rng.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(np.linalg.norm(g))
    return np.array(norms)
