"""Clips the RMS-normalized values to [-8, 8]; one spike among 200 features normalizes to about 14."""
import numpy as np

KILLED_BY = ("test_rms_norm_keeps_its_promises_on_every_input",)
TITLE = 'RMS-normalized values clipped'
EXPLANATION = ('Your rms_norm bounds the normalized values, but a normalized entry can be as large as the square '
               'root of the number of features: one spike among 200 zeros becomes about 14.')
HINT = 'Return the divided values as the formula gives them, with no bound: a row with one large entry has a large normalized entry.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = np.clip(x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps), -8.0, 8.0)
    return out * gamma if gamma is not None else out
