"""Handles 3-D input by calling itself on each 2-D slice but forgets to pass eps along, which no public check sees."""
import numpy as np

KILLED_BY = ("test_rms_norm_matches_reference_on_random_inputs",)
TITLE = 'RMSNorm loses eps on 3-D input'
EXPLANATION = 'For 3-D input your rms_norm works slice by slice and forgets to pass eps along.'
HINT = 'Every argument must reach every path of the function, for inputs of any number of dimensions.'


def rms_norm(x, eps=1e-6, gamma=None):
    if x.ndim == 3:
        return np.stack([rms_norm(matrix, gamma=gamma) for matrix in x])
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
