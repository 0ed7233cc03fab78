"""Sets every row whose variance is under 1e-12 to zeros, though only a variance of exactly 0 gives zeros."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_its_promises_on_every_input",)
TITLE = 'rows of tiny variance set to zero'
EXPLANATION = 'Your layer_norm sets rows with a very small variance to zeros, though only a variance of exactly zero gives zeros.'
HINT = 'Apply the same formula to every row; eps alone decides what happens to rows of small variance.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    out = np.where(var < 1e-12, 0.0, (x - mu) / np.sqrt(var + eps))
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
