"""Drops keepdims, so each row's root-mean-square divides a column instead of its own row."""
import numpy as np

KILLED_BY = ("test_rms_norm_normalizes_each_row_over_the_last_axis", "test_rms_norm_rows_are_independent")
TITLE = 'RMSNorm statistics broadcast along the wrong axis'
EXPLANATION = "Your rms_norm's per-row root-mean-square loses its axis, so it divides a column instead of its own row."
HINT = "Each row's root-mean-square must line up with that row when you divide; think about the shapes involved."


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1) + eps)
    return out * gamma if gamma is not None else out
