"""Divides by sqrt(mean(x ** 2)) with no eps at all, so an all-zero row becomes nan."""
import numpy as np

KILLED_BY = ("test_rms_norm_all_zero_row_stays_zero", "test_rms_norm_default_eps_is_1e_6",
             "test_rms_norm_eps_goes_inside_the_square_root")
TITLE = 'RMSNorm without eps'
EXPLANATION = 'Your rms_norm divides by the root-mean-square with no eps, so an all-zero row becomes nan.'
HINT = 'The spec says where eps goes: it keeps the division finite for a row of zeros.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True))
    return out * gamma if gamma is not None else out
