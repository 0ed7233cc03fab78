"""Divides x in place where x is not C-contiguous: a Fortran-ordered or transposed x is overwritten."""
import numpy as np

KILLED_BY = ("test_rms_norm_leaves_its_input_unchanged",)
TITLE = "RMSNorm overwrites a column-major x"
EXPLANATION = ("Your rms_norm returns a new array for a row-major (C-ordered) x, but divides a Fortran-ordered or "
               "transposed x in place, so the caller's array changes.")
HINT = ("x may come in any memory layout, and it must come back untouched in every one: divide into a new array, "
        "never in place.")


def rms_norm(x, eps=1e-6, gamma=None):
    rms = np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    if x.flags.c_contiguous:
        out = x / rms
    else:
        x /= rms
        out = x
    if gamma is not None:
        out = out * gamma
    return out
