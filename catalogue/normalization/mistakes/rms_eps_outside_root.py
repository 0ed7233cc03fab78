"""Adds eps after the square root, sqrt(mean(x ** 2)) + eps, instead of under it."""
import numpy as np

KILLED_BY = ("test_rms_norm_eps_goes_inside_the_square_root",)
TITLE = 'RMSNorm adds eps outside the square root'
EXPLANATION = 'Your rms_norm adds eps after the square root instead of under it.'
HINT = 'Reread the formula in the spec: where exactly is eps added?'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / (np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True)) + eps)
    return out * gamma if gamma is not None else out
