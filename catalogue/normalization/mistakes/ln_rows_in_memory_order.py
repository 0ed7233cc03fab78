"""Takes the rows in memory order (ravel(order='K')): right for a C-ordered x, rows mixed up for a Fortran-ordered or transposed one."""
import numpy as np

KILLED_BY = ("test_layer_norm_normalizes_each_row_over_the_last_axis", "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'LayerNorm takes its rows in memory order'
EXPLANATION = ('Your layer_norm cuts x into rows in the order its numbers lie in memory, which is row by row only for '
               'an array in the default (C) order: for a transposed array, or one in Fortran order, the rows it '
               'normalizes mix entries of different examples.')
HINT = 'Take each row along the last axis by index, whatever the memory layout of x.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    d = x.shape[-1]
    rows = x.ravel(order='K').reshape(-1, d)
    mu = rows.mean(axis=1, keepdims=True)
    var = ((rows - mu) ** 2).mean(axis=1, keepdims=True)
    out = ((rows - mu) / np.sqrt(var + eps)).reshape(x.shape)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
