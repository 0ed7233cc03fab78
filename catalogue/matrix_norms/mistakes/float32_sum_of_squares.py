"""Sums the squares in float32, which overflows to inf once a norm passes about 1.8e19."""

import numpy as np

KILLED_BY = ("test_keeps_every_promise_on_every_input",)
TITLE = 'the norm summed in single precision'
EXPLANATION = 'Your function sums the squares in float32, which overflows to infinity long before float64 would.'
HINT = 'Keep the whole computation in double precision; a large but finite norm must stay finite.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.sqrt(dim))]
    for _ in range(depth):
        g = rng.normal(0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.sqrt(np.sum(g * g, dtype=np.float32))))
    return norms
