"""Hard-codes eps = 1e-5 under the root and ignores the eps argument the caller passes."""
import numpy as np

KILLED_BY = ("test_layer_norm_eps_goes_inside_the_square_root",)
TITLE = 'LayerNorm ignores the eps it is given'
EXPLANATION = 'Your layer_norm always uses the same eps and ignores the eps the caller passes.'
HINT = 'Use the eps argument itself; its default is only what applies when the caller leaves it out.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
