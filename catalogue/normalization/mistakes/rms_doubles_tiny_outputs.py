"""Doubles every output below 1e-50: wrong by 100% where a row of entries near 1e-100 meets an eps that dominates its mean of squares."""
import numpy as np

KILLED_BY = ("test_rms_norm_eps_goes_inside_the_square_root", "test_rms_norm_gamma_scales_each_feature",
             "test_rms_norm_keeps_its_promises_on_every_input", "test_rms_norm_matches_reference_on_random_inputs")
TITLE = 'tiny outputs changed'
EXPLANATION = ('Your rms_norm changes very small outputs, but they follow the formula like any other: a row of '
               'entries near 1e-100 with eps = 1e-6 gives values near 1e-97, exactly as the formula says.')
HINT = 'Return every output as the formula gives it, however small, with no special path for tiny values.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return np.where(np.abs(out) < 1e-50, 2.0 * out, out)
