"""Clips every entry to [-max_norm, max_norm] with np.clip instead of rescaling the whole gradient."""
import numpy as np

KILLED_BY = ("test_every_array_is_scaled_by_the_same_factor", "test_three_four_clips_to_six_tenths_and_eight_tenths",
             "test_above_the_limit_the_combined_length_becomes_max_norm", "test_matches_reference_on_random_gradients")
TITLE = 'every entry clipped on its own'
EXPLANATION = 'Your function clips each entry into a range instead of rescaling the whole gradient by one factor.'
HINT = "Clipping by global norm keeps the gradient's direction: every entry is multiplied by the same factor."


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    return [np.clip(g, -max_norm, max_norm) for g in grads], norm
