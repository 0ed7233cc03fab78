"""Sets clipped entries below 1e-250 to 0, as if they were rounding noise; a list mixing entries of 1e150 and 1e-150 clips the small ones to about 1e-300, which is still a normal float."""

import numpy as np

KILLED_BY = ("test_every_array_is_scaled_by_the_same_factor", "test_keeps_every_promise_on_every_input",
             "test_matches_reference_on_random_gradients")
TITLE = 'tiny clipped entries rounded to zero'
EXPLANATION = ('Your function sets very small clipped entries to 0, but every entry is multiplied by the same '
               'factor: an entry of 1e-150 clipped by 1e-150 becomes 1e-300, a float like any other, not 0.')
HINT = 'Multiply every entry by the one factor max_norm / norm and keep what comes out, however small.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(np.square(g))) for g in grads)))
    if norm > max_norm:
        clipped = [np.asarray(g) * (max_norm / norm) for g in grads]
        for c in clipped:
            c[np.abs(c) < 1e-250] = 0.0
        return clipped, norm
    return [np.array(g, copy=True) for g in grads], norm
