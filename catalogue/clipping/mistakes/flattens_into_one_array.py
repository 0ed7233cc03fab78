"""Concatenates every array into one flat vector and returns that instead of one array per layer."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",
             "test_three_four_clips_to_six_tenths_and_eight_tenths", "test_matches_reference_on_random_gradients")
TITLE = 'one flat array returned'
EXPLANATION = 'Your function joins every array into one flat vector and returns that, instead of one array per layer.'
HINT = 'Measure the norm over all entries together, but return the arrays in their own shapes, one per input array.'


def clip_by_global_norm(grads, max_norm):
    flat = np.concatenate([g.ravel() for g in grads])
    norm = float(np.linalg.norm(flat))
    return (flat * (max_norm / norm) if norm > max_norm else flat), norm
