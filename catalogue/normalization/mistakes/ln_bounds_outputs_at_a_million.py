"""Replaces nan and inf and bounds the outputs to [-1e6, 1e6] after gamma and beta; a gamma of 1e7 scales a normalized 1.3 past that bound."""
import numpy as np

KILLED_BY = ("test_layer_norm_gamma_scales_each_feature", "test_layer_norm_beta_shifts_each_feature_after_scaling",
             "test_layer_norm_keeps_its_promises_on_every_input", "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'outputs bounded after gamma and beta'
EXPLANATION = ('Your layer_norm bounds what it returns, but gamma and beta may be any numbers: a gamma of 1e7 '
               'turns a normalized 1.3 into 1.3e7, and that is the right output.')
HINT = 'Return the scaled and shifted values as the formula gives them, with no bound and no clean-up afterwards.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return np.clip(np.nan_to_num(out), -1e6, 1e6)
