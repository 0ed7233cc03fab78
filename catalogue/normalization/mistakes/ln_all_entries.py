"""Takes one mean and one variance over every entry of the array (no axis) instead of per row."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_rows_are_independent",
             "test_layer_norm_handles_3d_input")
TITLE = 'LayerNorm statistics over the whole array'
EXPLANATION = 'Your layer_norm takes one mean and one variance over every entry of the array instead of one per row.'
HINT = 'LayerNorm normalizes each example on its own: the statistics are taken along the feature axis only.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean()) / np.sqrt(x.var() + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
