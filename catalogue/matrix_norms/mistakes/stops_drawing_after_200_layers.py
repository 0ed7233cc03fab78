"""Draws matrices for the first 200 layers only and repeats the last norm after them."""
import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input", "test_norms_follow_from_the_matrices_drawn")
TITLE = 'no fresh matrices past 200 layers'
EXPLANATION = 'Your function stops drawing after 200 layers, so deeper layers neither get a matrix nor change the norm.'
HINT = 'Every layer gets a fresh matrix, however deep the stack: the spec puts no limit on depth.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for layer in range(depth):
        if layer < 200:
            g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
