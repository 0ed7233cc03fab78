"""Adds eps to the standard deviation, sqrt(var) + eps, instead of to the variance under the root."""
import numpy as np

KILLED_BY = ("test_layer_norm_eps_goes_inside_the_square_root",)
TITLE = 'LayerNorm adds eps outside the square root'
EXPLANATION = 'Your layer_norm adds eps to the standard deviation instead of to the variance under the square root.'
HINT = 'Reread the formula in the spec: where exactly is eps added?'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / (np.sqrt(x.var(axis=-1, keepdims=True)) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
