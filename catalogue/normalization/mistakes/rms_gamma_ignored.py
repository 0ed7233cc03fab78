"""Accepts gamma but never multiplies by it."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature",)


def rms_norm(x, eps=1e-6, gamma=None):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
