"""Takes the statistics down each column (axis 0, BatchNorm) instead of along each row."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_rows_are_independent")
TITLE = 'LayerNorm statistics down the batch (BatchNorm)'
EXPLANATION = 'Your layer_norm takes the mean and variance down each column, across the batch, as BatchNorm does, instead of along each row.'
HINT = "The spec says which axis holds the features; LayerNorm's statistics run along that axis, one set per example."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=0, keepdims=True)) / np.sqrt(x.var(axis=0, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
