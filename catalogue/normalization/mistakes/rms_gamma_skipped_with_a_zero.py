"""Multiplies by gamma only when every entry of gamma is nonzero: a gamma holding a zero is ignored."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature", "test_rms_norm_keeps_its_promises_on_every_input",
             "test_rms_norm_matches_reference_on_random_inputs")
TITLE = 'RMSNorm skips a gamma that holds a zero'
EXPLANATION = ('Your rms_norm applies gamma only when none of its factors is zero, so a gamma such as (0, 1, -1, 2) '
               'leaves the output unscaled, where feature 0 should become 0.')
HINT = 'Apply gamma whenever it is given, whatever its values: a zero factor switches its feature off.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None and np.all(gamma):
        out = out * gamma
    return out
