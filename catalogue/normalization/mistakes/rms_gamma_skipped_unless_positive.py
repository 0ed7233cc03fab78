"""Multiplies by gamma only when every entry of gamma is positive: a gamma with a zero or a negative factor is ignored."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature", "test_rms_norm_keeps_its_promises_on_every_input",
             "test_rms_norm_matches_reference_on_random_inputs")
TITLE = 'RMSNorm skips a gamma that is not all positive'
EXPLANATION = ('Your rms_norm applies gamma only when all its factors are positive, so a gamma with a zero or a '
               'negative factor leaves the output unscaled.')
HINT = 'Apply gamma whenever it is given, whatever its values: negative and zero factors are allowed.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None and (gamma > 0).all():
        out = out * gamma
    return out
