"""Treats an eps under 1e-12 as 0 (constant rows then give zeros): for a row of entries near 1e-100 a given eps of 1e-21 decides the result."""
import numpy as np

KILLED_BY = ("test_layer_norm_eps_goes_inside_the_square_root", "test_layer_norm_keeps_its_promises_on_every_input")
TITLE = 'a tiny eps dropped'
EXPLANATION = ('Your layer_norm ignores an eps it judges too small to matter, but for a row of tiny entries (a '
               'variance near 1e-200) an eps of 1e-21 is what the result is made of.')
HINT = 'Add eps as it is given, however tiny: whether it matters depends on the row, not on eps alone.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    eps = 0.0 if eps < 1e-12 else eps
    with np.errstate(all="ignore"):
        out = np.where(var == 0, 0.0, (x - mu) / np.sqrt(var + eps))
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
