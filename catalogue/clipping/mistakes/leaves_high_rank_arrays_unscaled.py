"""Measures the global norm right but returns arrays of 4 or more dimensions unscaled."""
import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm", "test_every_array_is_scaled_by_the_same_factor",
             "test_keeps_every_promise_on_every_input", "test_matches_reference_on_random_gradients")
TITLE = 'arrays of high rank left unscaled'
EXPLANATION = ('Your function measures the norm of all arrays together but scales only some of them: arrays of 4 '
               'or more dimensions (a convolution kernel, say) come back as they were, so the result is longer than '
               'max_norm and points another way.')
HINT = 'Scale every array by the same factor, whatever its number of dimensions or its place in the list.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm:
        scale = max_norm / norm
        return [np.array(g, copy=True) if g.ndim >= 4 else np.asarray(g) * scale for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
