"""Takes the mean of squares down each column (axis 0) instead of along each row."""
import numpy as np

KILLED_BY = ("test_rms_norm_normalizes_each_row_over_the_last_axis", "test_rms_norm_rows_are_independent")
TITLE = 'RMSNorm statistics down the batch'
EXPLANATION = 'Your rms_norm takes the mean of squares down each column, across the batch, instead of along each row.'
HINT = 'RMSNorm normalizes each example on its own, along the feature axis.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=0, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
