"""Measures every array but scales only the first eight: the ninth and later come back unclipped."""

import numpy as np

KILLED_BY = ("test_above_the_limit_the_combined_length_becomes_max_norm", "test_keeps_every_promise_on_every_input",
             "test_matches_reference_on_random_gradients")
TITLE = 'arrays after the eighth left unclipped'
EXPLANATION = ('Your function scales only the first few arrays of the list, so with many arrays the later ones come '
               'back unclipped and the combined length stays above max_norm.')
HINT = 'Every array of the list, however long the list, is scaled by the same factor.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm:
        scale = max_norm / norm
        return [np.asarray(g) * scale if i < 8 else np.array(g, copy=True) for i, g in enumerate(grads)], norm
    return [np.array(g, copy=True) for g in grads], norm
