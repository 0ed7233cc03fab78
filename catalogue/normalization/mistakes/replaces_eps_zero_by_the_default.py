"""Replaces an eps of 0 by the default, so eps=0.0 does not mean no eps."""

import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input", "test_rms_norm_keeps_its_promises_on_every_input")
TITLE = 'an eps of zero replaced by the default'
EXPLANATION = 'When the caller passes eps=0 your functions use the default instead, so eps=0 does not mean no eps.'
HINT = 'Zero is a valid eps: only a missing argument falls back to the default.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    if eps == 0:
        eps = 1e-5
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    out = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
def rms_norm(x, eps=1e-6, gamma=None):
    if eps == 0:
        eps = 1e-6
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return out
