"""Returns the scale factor min(1, max_norm / norm) instead of the norm."""
import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping", "test_matches_reference_on_random_gradients")
TITLE = 'the scale factor returned instead of the norm'
EXPLANATION = 'Your function returns the factor it scaled by instead of the global norm.'
HINT = 'The second value of the pair is the norm of the incoming gradients.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return [g * scale for g in grads], scale
