"""Sets outputs below 1e-50 to 0, as if they were rounding noise; a row of entries near 1e-100, whose eps dominates its variance, normalizes to outputs near 3e-98."""
import numpy as np

KILLED_BY = ("test_layer_norm_eps_goes_inside_the_square_root", "test_layer_norm_gamma_scales_each_feature",
             "test_layer_norm_keeps_its_promises_on_every_input", "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'tiny outputs rounded to zero'
EXPLANATION = ('Your layer_norm sets very small outputs to 0, but the formula gives them as they are: a row of '
               'entries near 1e-100 with eps = 1e-5 normalizes to values near 3e-98, floats like any other.')
HINT = 'Return every output as the formula gives it, however small; no output is rounded to 0 afterwards.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    out[np.abs(out) < 1e-50] = 0.0
    return out
