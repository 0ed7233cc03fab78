"""Clips the normalized values to [-5, 5], as if no normalized entry could be larger; one spike among 200 features normalizes to about 14."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input",)
TITLE = 'normalized values clipped'
EXPLANATION = ('Your layer_norm bounds the normalized values, but a normalized entry can be as large as the square '
               'root of the number of features: one spike among 200 zeros becomes about 14.')
HINT = 'Return the normalized values as the formula gives them, with no bound: a row with one large entry has a large normalized entry.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    out = np.clip((x - mu) / np.sqrt(var + eps), -5.0, 5.0)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
