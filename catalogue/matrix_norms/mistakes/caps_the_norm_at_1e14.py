"""Rescales g whenever its norm passes 1e14, so an exploding gradient never grows past 1e14."""

import numpy as np

KILLED_BY = ("test_large_weights_make_the_gradient_explode",)
TITLE = 'an exploding gradient capped'
EXPLANATION = 'Your function rescales the gradient once it gets very large, so an exploding gradient never shows how far it grows.'
HINT = 'The lesson is to watch the norm explode: record it as it is at every layer, however large.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        W = rng.normal(0, weight_std, size=(dim, dim))
        g = W @ g
        n = float(np.linalg.norm(g))
        if n > 1e14:  # keep numbers sane
            g = g / n * 1e14
            n = 1e14
        norms.append(n)
    return norms
