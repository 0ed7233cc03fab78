"""Returns the clipped arrays as a tuple instead of a list."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",)
TITLE = 'a tuple of arrays instead of a list'
EXPLANATION = 'Your function returns the clipped arrays as a tuple, where the spec asks for a list.'
HINT = 'Read the Output section again: the clipped arrays come in a list.'


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return tuple(g * scale for g in grads), norm
