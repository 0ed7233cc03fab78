"""Measures only the first array's norm and scales every array by it."""
import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping", "test_three_four_clips_to_six_tenths_and_eight_tenths",
             "test_above_the_limit_the_combined_length_becomes_max_norm", "test_matches_reference_on_random_gradients")
TITLE = 'only the first array measured'
EXPLANATION = 'Your function measures the norm of the first array only and scales every array by it.'
HINT = 'The global norm counts the entries of every array, as if they were one long vector.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(np.sum(grads[0] ** 2)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return [g * scale for g in grads], norm
