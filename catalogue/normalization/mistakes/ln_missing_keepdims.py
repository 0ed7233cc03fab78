"""Drops keepdims, so the row statistics broadcast along the wrong axis for anything but a 1-D row."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_rows_are_independent")


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1)) / np.sqrt(x.var(axis=-1) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
