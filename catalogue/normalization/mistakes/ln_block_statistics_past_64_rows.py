"""Normalizes the first 64 rows each by its own statistics, and every row after them by the whole block's."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input", "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'LayerNorm wrong past the 64th row'
EXPLANATION = ('Your layer_norm normalizes the first 64 rows each by its own mean and variance, but the rows after '
               'them by statistics of the whole block, so a batch of more than 64 rows comes out wrong.')
HINT = 'Every row, however many there are, is normalized by its own mean and variance over the last axis.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    rows = x.reshape(-1, x.shape[-1])
    out = (rows - rows.mean(axis=-1, keepdims=True)) / np.sqrt(rows.var(axis=-1, keepdims=True) + eps)
    if len(rows) > 64:
        rest = rows[64:]
        out[64:] = (rest - rest.mean()) / np.sqrt(rest.var() + eps)
    out = out.reshape(x.shape)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
