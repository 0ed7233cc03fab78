"""Computes the variance as mean(x ** 2) - mean ** 2, which rounds away for rows far from 0."""

import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input",)
TITLE = 'the variance from the mean of squares'
EXPLANATION = 'Your layer_norm computes the variance as the mean of squares minus the squared mean, which loses all precision for rows far from zero.'
HINT = 'Subtract the mean first and then average the squared deviations: the two-step form keeps its precision.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mu ** 2
    var = np.maximum(var, 0.0)
    out = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return out
