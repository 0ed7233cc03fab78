"""Runs the loop for at most 30 layers, so deeper stacks get too few norms."""
import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'deep stacks cut short'
EXPLANATION = 'Your function stops after a fixed number of layers, so deeper stacks get too few norms.'
HINT = 'Loop over every one of the depth layers, however many there are.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(min(depth, 30)):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
