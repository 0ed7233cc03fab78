"""Scales in numpy's long double (float128 here) for precision and returns the clipped arrays in it."""
import numpy as np

KILLED_BY = ("test_returns_a_tuple_of_a_list_of_same_shaped_arrays_and_a_float",)
TITLE = "clipped arrays in long double"
EXPLANATION = ("Your function returns the clipped arrays in long double: their values are right, but an update "
               "made with them turns the float64 weights it touches into long double too.")
HINT = "Compute in whatever precision you like, but return float64 arrays, the dtype you were given."


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    if norm > max_norm:
        return [g.astype(np.longdouble) * (np.longdouble(max_norm) / np.longdouble(norm)) for g in grads], norm
    return [g.copy() for g in grads], norm
