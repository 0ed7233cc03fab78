"""Computes the norm in float32, which loses precision and overflows for an exploding gradient."""
import numpy as np

KILLED_BY = ("test_an_exploding_gradient_of_length_8e46_clips_to_length_one",
             "test_matches_reference_on_random_gradients")
TITLE = 'the norm computed in single precision'
EXPLANATION = 'Your function computes the norm in float32, which loses precision and overflows for an exploding gradient.'
HINT = 'Keep the computation of the norm in double precision.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(np.sum(g.astype(np.float32) ** 2) for g in grads)))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
