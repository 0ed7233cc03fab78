"""Takes the statistics over axis min(ndim - 1, 2), which is the last axis only up to 3-D inputs."""

import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input", "test_rms_norm_keeps_its_promises_on_every_input")
TITLE = 'statistics over a fixed axis past 3-D'
EXPLANATION = 'Both of your functions take their statistics over an axis that is the last one only up to three dimensions.'
HINT = 'The spec says the features are along the last axis, for inputs of any number of dimensions.'


def _axis(x):
    return min(x.ndim - 1, 2)
def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    a = _axis(x)
    mu = x.mean(axis=a, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=a, keepdims=True)
    out = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=_axis(x), keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return out
