"""Accepts gamma but never multiplies by it."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature",)
TITLE = 'RMSNorm ignores gamma'
EXPLANATION = 'Your rms_norm accepts gamma but never multiplies by it.'
HINT = 'Reread what gamma does in the spec, and check that it reaches the result.'


def rms_norm(x, eps=1e-6, gamma=None):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
