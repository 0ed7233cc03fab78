"""Returns the clipped arrays as a tuple instead of a list."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",)


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
    scale = max_norm / norm if norm > max_norm else 1.0
    return tuple(g * scale for g in grads), norm
