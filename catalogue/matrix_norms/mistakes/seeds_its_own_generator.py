"""Makes a new generator with a fixed seed inside the function and ignores the rng argument."""

import numpy as np

KILLED_BY = ("test_uses_the_passed_in_rng",)
TITLE = 'a generator of its own'
EXPLANATION = 'Your function makes its own random generator and ignores the rng it was given.'
HINT = 'Draw every random number from the rng argument; the caller decides the seed.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    own = np.random.default_rng(0)
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = own.normal(0.0, weight_std, size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
