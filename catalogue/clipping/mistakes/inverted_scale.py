"""Multiplies by norm / max_norm instead of max_norm / norm, which grows an exploding gradient further."""
import numpy as np

KILLED_BY = ("test_three_four_clips_to_six_tenths_and_eight_tenths",
             "test_an_exploding_gradient_of_length_8e46_clips_to_length_one",
             "test_above_the_limit_the_combined_length_becomes_max_norm", "test_matches_reference_on_random_gradients")
TITLE = 'the scale factor upside down'
EXPLANATION = 'Your function multiplies by the norm over max_norm instead of max_norm over the norm, which makes an exploding gradient grow further.'
HINT = "After clipping, the gradient's length must be max_norm: what factor turns a length of norm into max_norm?"


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    if norm > max_norm:
        return [g * (norm / max_norm) for g in grads], norm
    return [g.copy() for g in grads], norm
