"""Uses the sum of squares as the norm, forgetting the square root."""
import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping",
             "test_above_the_limit_the_combined_length_becomes_max_norm",
             "test_an_exploding_gradient_of_length_8e46_clips_to_length_one",
             "test_matches_reference_on_random_gradients")
TITLE = 'the sum of squares used as the norm'
EXPLANATION = 'Your function uses the sum of squares as the norm and forgets the square root.'
HINT = 'The Euclidean norm is the square root of the sum of squares.'


def clip_by_global_norm(grads, max_norm):
    norm = float(sum(np.sum(g ** 2) for g in grads))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
