"""Takes the rows in memory order (ravel(order='K')): right for a C-ordered x, rows mixed up for a Fortran-ordered or transposed one."""
import numpy as np

KILLED_BY = ("test_rms_norm_normalizes_each_row_over_the_last_axis", "test_rms_norm_matches_reference_on_random_inputs")
TITLE = 'RMSNorm takes its rows in memory order'
EXPLANATION = ('Your rms_norm cuts x into rows in the order its numbers lie in memory, which is row by row only for '
               'an array in the default (C) order: for a transposed array, or one in Fortran order, each row is '
               'divided by the root-mean-square of entries from other examples.')
HINT = 'Take each row along the last axis by index, whatever the memory layout of x.'


def rms_norm(x, eps=1e-6, gamma=None):
    d = x.shape[-1]
    rows = x.ravel(order='K').reshape(-1, d)
    out = (rows / np.sqrt((rows ** 2).mean(axis=1, keepdims=True) + eps)).reshape(x.shape)
    if gamma is not None:
        out = out * gamma
    return out
