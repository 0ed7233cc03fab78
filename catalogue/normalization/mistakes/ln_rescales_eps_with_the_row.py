"""Scales each row by a power of two of its largest entry to keep the squares in range, and eps with it: eps rounds to 0 for a large constant row (or a tiny eps), which then gives 0 / 0."""
import numpy as np

KILLED_BY = ("test_layer_norm_constant_row_is_all_zeros",)
TITLE = 'LayerNorm rescales eps with the row, down to 0'
EXPLANATION = ('Your layer_norm rescales each row, and eps along with it, before the variance: for a large constant row, '
               'or a tiny eps, the rescaled eps rounds to 0, so the constant row gives 0 / 0 = nan instead of zeros.')
HINT = 'However tiny eps is, it is not 0: add eps as given, so that a constant row gives 0 divided by the square root of eps, which is 0.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    largest = np.max(np.abs(x), axis=-1, keepdims=True)
    _, exponent = np.frexp(np.where(largest == 0, 1.0, largest))
    scaled = np.ldexp(x, -exponent)
    deviations = scaled - scaled.mean(axis=-1, keepdims=True)
    var = (deviations * deviations).mean(axis=-1, keepdims=True)
    out = deviations / np.sqrt(var + np.ldexp(np.full_like(largest, eps), -2 * exponent))
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out

