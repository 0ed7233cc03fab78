"""Takes one mean and one variance over every entry of the array (no axis) instead of per row."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_rows_are_independent",
             "test_layer_norm_handles_3d_input")


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean()) / np.sqrt(x.var() + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
