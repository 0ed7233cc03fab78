"""Drops keepdims, so the row statistics broadcast along the wrong axis for anything but a 1-D row."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_rows_are_independent")
TITLE = 'LayerNorm statistics broadcast along the wrong axis'
EXPLANATION = "Your layer_norm's per-row statistics lose their axis, so they are applied to columns instead of their own rows."
HINT = "Each row's mean and variance must line up with that row when you subtract and divide; think about the shapes involved."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1)) / np.sqrt(x.var(axis=-1) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
