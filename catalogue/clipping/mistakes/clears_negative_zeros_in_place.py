"""Tidies the caller's arrays in place (g[g == 0] = 0.0, making -0.0 into 0.0) before clipping."""
import numpy as np

KILLED_BY = ("test_the_input_arrays_are_not_modified",)
TITLE = "the caller's zeros rewritten"
EXPLANATION = ("Your function writes into the caller's arrays before clipping them: the negative zeros it was "
               "given come back as positive zeros, which compare equal but are not the values passed in.")
HINT = "Do any tidying on new arrays: the spec says neither the list nor any of its arrays may be modified."


def clip_by_global_norm(grads, max_norm):
    for g in grads:
        g[g == 0] = 0.0
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    if norm > max_norm:
        return [g * (max_norm / norm) for g in grads], norm
    return [g.copy() for g in grads], norm
