"""Clips each array by its own norm instead of scaling all of them by one factor from the global norm."""
import numpy as np

KILLED_BY = ("test_every_array_is_scaled_by_the_same_factor", "test_three_four_clips_to_six_tenths_and_eight_tenths",
             "test_above_the_limit_the_combined_length_becomes_max_norm", "test_matches_reference_on_random_gradients")
TITLE = 'each array clipped by its own norm'
EXPLANATION = 'Your function clips each array by its own norm instead of scaling all of them by one factor from the global norm.'
HINT = 'The global norm is measured over all arrays together, and one factor scales them all.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    clipped = []
    for g in grads:
        own = float(np.sqrt(np.sum(g ** 2)))
        clipped.append(g * (max_norm / own) if own > max_norm else g.copy())
    return clipped, norm
