"""Centres x in place (x -= mean) where x is not C-contiguous: a Fortran-ordered or transposed x is overwritten."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = "LayerNorm overwrites a column-major x"
EXPLANATION = ("Your layer_norm returns a new array for a row-major (C-ordered) x, but centres a Fortran-ordered or "
               "transposed x in place, so the caller's array changes.")
HINT = ("x may come in any memory layout, and it must come back untouched in every one: compute the centred rows "
        "in a new array, never by subtracting the mean from x in place.")


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mean = x.mean(axis=-1, keepdims=True)
    if x.flags.c_contiguous:
        centred = x - mean
    else:
        x -= mean
        centred = x
    out = centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
