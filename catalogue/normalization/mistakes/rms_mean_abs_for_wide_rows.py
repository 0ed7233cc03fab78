"""For rows of more than 1000 features divides by the mean of the absolute values instead of the root-mean-square, as a cheaper estimate."""
import numpy as np

KILLED_BY = ("test_rms_norm_normalizes_each_row_over_the_last_axis",)
TITLE = 'wide rows divided by their mean absolute value'
EXPLANATION = ('Your rms_norm uses another statistic for wide rows, but the root-mean-square is the formula for '
               'every d: for 1,500 features of a normal spread the mean absolute value is 20% smaller.')
HINT = 'Divide by the square root of the mean of the squares (plus eps), however many features a row has.'


def rms_norm(x, eps=1e-6, gamma=None):
    if x.shape[-1] > 1000:
        ms = np.mean(np.abs(x), axis=-1, keepdims=True) ** 2
    else:
        ms = np.mean(x ** 2, axis=-1, keepdims=True)
    out = x / np.sqrt(ms + eps)
    if gamma is not None:
        out = out * gamma
    return out
