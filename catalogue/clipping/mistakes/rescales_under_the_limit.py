"""Always multiplies by max_norm / norm, which also scales up gradients that were under the limit."""
import numpy as np

KILLED_BY = ("test_under_the_limit_the_values_are_unchanged", "test_all_zero_gradients_return_zeros_without_warning",
             "test_matches_reference_on_random_gradients")
TITLE = 'gradients under the limit rescaled too'
EXPLANATION = 'Your function always rescales to max_norm, which also scales up gradients that were under the limit.'
HINT = 'Clipping only ever shrinks: under the limit the gradients come back unchanged.'


def clip_by_global_norm(grads, max_norm):
    norm = np.sqrt(sum(np.sum(g ** 2) for g in grads))
    return [g * (max_norm / norm) for g in grads], float(norm)
