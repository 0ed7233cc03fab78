"""Reports the combined length after clipping instead of the norm before clipping."""
import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping", "test_three_four_clips_to_six_tenths_and_eight_tenths",
             "test_an_exploding_gradient_of_length_8e46_clips_to_length_one",
             "test_matches_reference_on_random_gradients")
TITLE = 'the norm after clipping returned'
EXPLANATION = 'Your function reports the length after clipping instead of the norm before clipping.'
HINT = 'The spec asks for the global norm of the gradients as they came in, before any clipping.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    clipped = [g * (max_norm / norm) for g in grads] if norm > max_norm else [g.copy() for g in grads]
    return clipped, float(np.sqrt(sum(float(np.sum(c ** 2)) for c in clipped)))
