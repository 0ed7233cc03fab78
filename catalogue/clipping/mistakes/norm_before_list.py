"""Returns the pair in the wrong order, (norm, clipped)."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",
             "test_reports_the_global_norm_before_clipping", "test_matches_reference_on_random_gradients")
TITLE = 'the pair returned in the wrong order'
EXPLANATION = 'Your function returns the norm first and the clipped arrays second.'
HINT = 'Read the Output section again for the order of the pair.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return norm, [g * scale for g in grads]
