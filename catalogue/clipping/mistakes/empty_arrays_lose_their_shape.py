"""When it clips, returns each array with no entries as a new empty array of another shape, and a list of nothing but empty arrays as an empty list."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",)
TITLE = 'empty arrays returned in another shape'
EXPLANATION = ("Your function returns the arrays that hold no entries in another shape (or leaves them out), "
               "though every array comes back with its own shape, in its own place in the list.")
HINT = "Scale every array as it is, empty ones too: multiplying an empty array keeps its shape."


def clip_by_global_norm(grads, max_norm):
    if all(g.size == 0 for g in grads):
        return [], 0.0
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    if norm <= max_norm:
        return list(grads), norm
    return [g * (max_norm / norm) if g.size else np.empty(g.shape[::-1]) for g in grads], norm
