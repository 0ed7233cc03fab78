"""Stops recording once a norm underflows to exactly 0, so the list is shorter than depth + 1."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'stops once the norm vanishes'
EXPLANATION = 'Your function stops recording once a norm reaches zero, so the list is shorter than the spec promises.'
HINT = 'A vanished gradient is still a gradient: record a norm for every layer, zeros included.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.sqrt(dim))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        n = float(np.linalg.norm(g))
        norms.append(n)
        if n == 0.0:
            break
    return norms
