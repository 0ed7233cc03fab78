"""Rounds gamma to 6 decimals before scaling: off by about 1e-7 relative for a gamma such as 1.23456789."""
import numpy as np

KILLED_BY = ("test_layer_norm_gamma_scales_each_feature",)
TITLE = 'LayerNorm rounds gamma'
EXPLANATION = ('Your layer_norm rounds gamma before multiplying by it, so a gamma with many significant digits '
               'such as 1.23456789 scales the output by a slightly different factor.')
HINT = 'Use gamma exactly as given, in float64.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * np.round(gamma, 6)
    if beta is not None:
        out = out + beta
    return out
