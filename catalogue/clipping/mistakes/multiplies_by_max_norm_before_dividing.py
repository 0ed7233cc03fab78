"""Scales by computing grad * max_norm / norm: the product underflows for tiny entries and a tiny max_norm."""
import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm", "test_keeps_every_promise_on_every_input",
             "test_matches_reference_on_random_gradients")
TITLE = 'max_norm multiplied in before dividing by the norm'
EXPLANATION = ('Your function multiplies each entry by max_norm before dividing by the norm; for an entry of 1e-150 '
               'and a max_norm of 1e-170 that product (1e-320) is below the smallest normal float, loses digits or '
               'becomes 0, and the clipped values are wrong although the formula is right.')
HINT = ('Compute the one factor max_norm / norm first, then multiply every array by it: the factor stays in range '
        'where the product of two tiny numbers does not.')


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm:
        return [np.asarray(g) * max_norm / norm for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
