"""Uses the sum of absolute values (the L1 norm) instead of the Euclidean length."""
import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping",
             "test_above_the_limit_the_combined_length_becomes_max_norm",
             "test_three_four_clips_to_six_tenths_and_eight_tenths", "test_matches_reference_on_random_gradients")
TITLE = 'the sum of absolute values used as the norm'
EXPLANATION = 'Your function measures the gradient by the sum of absolute values (the L1 norm) instead of its Euclidean length.'
HINT = "The spec's norm is the Euclidean one: the square root of the sum of squares."


def clip_by_global_norm(grads, max_norm):
    norm = float(sum(np.sum(np.abs(g)) for g in grads))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
