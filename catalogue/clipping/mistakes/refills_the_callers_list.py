"""Fills the caller's list with copies of its arrays when nothing needs clipping, and returns that list."""

import math

import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "the caller's list refilled"
EXPLANATION = ("Your function puts new arrays into the list it was given when nothing needs clipping: the values "
               "are the same, but the caller's list no longer holds the caller's arrays.")
HINT = "The list you are given is the caller's: leave it as it was and build a new list for the result."


def clip_by_global_norm(grads, max_norm):
    norm = math.sqrt(sum(float(np.sum(np.square(g))) for g in grads))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    grads[:] = [np.array(g, dtype=np.float64) for g in grads]
    return grads, norm
