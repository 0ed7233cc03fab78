"""Marks the caller's x read-only (to guard it while normalizing), so the caller can no longer update it in place."""
import numpy as np

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = "LayerNorm leaves the caller's x read-only"
EXPLANATION = ("Your layer_norm marks the caller's x read-only and never gives it back its write flag: its values "
               "are the same, but the caller can no longer change them.")
HINT = "Leaving x alone means its flags too: work on a copy if you want one that nothing can write to."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    x.setflags(write=False)
    centred = x - x.mean(axis=-1, keepdims=True)
    out = centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
