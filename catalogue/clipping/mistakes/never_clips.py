"""Measures the global norm right but never scales: every array comes back as it was, over the limit or not."""

import numpy as np

KILLED_BY = ("test_every_array_is_scaled_by_the_same_factor", "test_above_the_limit_the_combined_length_becomes_max_norm",
             "test_under_the_limit_the_values_are_unchanged", "test_exactly_at_the_limit_the_values_are_unchanged")
TITLE = 'never clips'
EXPLANATION = ('Your function reports the global norm but returns every array as it was, so a gradient over the limit '
               'is never scaled down.')
HINT = 'When the norm is above max_norm, multiply every array by max_norm / norm.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    return [np.array(g, copy=True) for g in grads], norm
