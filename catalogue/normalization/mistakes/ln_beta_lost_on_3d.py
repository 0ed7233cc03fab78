"""Handles 3-D input by calling itself on each 2-D slice but forgets to pass beta along, which no public check sees."""
import numpy as np

KILLED_BY = ("test_layer_norm_matches_reference_on_random_inputs",)
TITLE = 'LayerNorm loses beta on 3-D input'
EXPLANATION = 'For 3-D input your layer_norm works slice by slice and forgets to pass beta along.'
HINT = 'Every argument must reach every path of the function, for inputs of any number of dimensions.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    if x.ndim == 3:
        return np.stack([layer_norm(matrix, eps, gamma) for matrix in x])
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
