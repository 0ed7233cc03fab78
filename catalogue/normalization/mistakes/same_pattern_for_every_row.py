"""Returns one fixed pattern of +1 and -1 in every row, whatever the row holds: its spread is 1, but it is made from no value of x."""

import numpy as np

KILLED_BY = ("test_layer_norm_rows_are_independent", "test_rms_norm_rows_are_independent")
TITLE = 'the same output for every row'
EXPLANATION = ('Your functions return the same alternating pattern of 1 and -1 for every row, so the output has the '
               'spread a normalized row has but does not depend on the row at all.')
HINT = "Compute each row's output from that row's own numbers, so that a row that changes gives a new output."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    x = np.asarray(x, dtype=float)
    return np.resize(np.array([-1.0, 1.0]), x.shape[-1:]) * np.ones(x.shape)


def rms_norm(x, eps=1e-6, gamma=None):
    x = np.asarray(x, dtype=float)
    return np.ones(x.shape)
