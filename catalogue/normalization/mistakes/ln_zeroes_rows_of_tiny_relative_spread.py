"""Treats a row whose spread is under 1e-7 of its mean as constant and returns zeros for it."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input", "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'rows far from 0 taken for constant ones'
EXPLANATION = ('Your layer_norm returns zeros for a row whose spread is tiny next to its mean (1e8 + (0, 1, 2, 3), '
               'say), as if the row were constant, though its variance is well above eps.')
HINT = 'Only eps decides how a row of small variance comes out: compute the deviations from the mean and normalize every row by the formula.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    out = (x - mu) / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    out = np.where(np.ptp(x, axis=-1, keepdims=True) <= 1e-7 * np.abs(mu), 0.0, out)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
