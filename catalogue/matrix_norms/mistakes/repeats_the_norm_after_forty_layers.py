"""Still draws every matrix but, past layer 40, records the last norm again instead of the new one."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'deep layers left out of the norms'
EXPLANATION = 'Past a fixed number of layers your function stops updating the norms, so deep stacks repeat an old value.'
HINT = 'Multiply by every layer\'s matrix and record the new norm after each of the depth layers, however deep the stack.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for layer in range(depth):
        weights = rng.normal(0, weight_std, size=(dim, dim))
        if layer < 40:
            g = weights @ g
        norms.append(float(np.linalg.norm(g)) if layer < 40 else norms[-1])
    return norms
