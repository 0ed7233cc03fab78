"""Applies gamma along the first axis (one factor per row) instead of one per feature."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature",)
TITLE = 'RMSNorm applies gamma along the wrong axis'
EXPLANATION = 'Your rms_norm applies gamma with one factor per row instead of one per feature.'
HINT = 'gamma holds one value per feature; it lines up with the feature axis.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    return (out.T * gamma).T if gamma is not None else out
