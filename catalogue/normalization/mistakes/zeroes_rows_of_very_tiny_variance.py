"""Returns zeros for a row whose variance (mean square, in rms_norm) is under 1e-250, as if it were zero: a threshold far below any eps."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input", "test_rms_norm_keeps_its_promises_on_every_input")
TITLE = "rows of very tiny entries taken for zeros"
EXPLANATION = ('Your functions return zeros for a row of very small entries (near 1e-140, say), as if its variance '
               'were zero, though with eps = 0 the formula normalizes it like any other row.')
HINT = 'A tiny variance is still a variance: only eps, as given, changes how a row of small entries comes out.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        out = np.where(var < 1e-250, 0.0, (x - mu) / np.sqrt(var + eps))
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    ms = (x ** 2).mean(axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        out = np.where(ms < 1e-250, 0.0, x / np.sqrt(ms + eps))
    return out if gamma is None else out * gamma
