"""Treats an eps under 1e-12 as 0 (all-zero rows then give zeros): for a row of entries near 1e-100 a given eps of 1e-21 decides the result."""
import numpy as np

KILLED_BY = ("test_rms_norm_eps_goes_inside_the_square_root", "test_rms_norm_keeps_its_promises_on_every_input")
TITLE = 'a tiny eps dropped'
EXPLANATION = ('Your rms_norm ignores an eps it judges too small to matter, but for a row of tiny entries (a mean '
               'of squares near 1e-200) an eps of 1e-21 is what the result is made of.')
HINT = 'Add eps as it is given, however tiny: whether it matters depends on the row, not on eps alone.'


def rms_norm(x, eps=1e-6, gamma=None):
    eps = 0.0 if eps < 1e-12 else eps
    ms = np.mean(x ** 2, axis=-1, keepdims=True)
    with np.errstate(all="ignore"):
        out = np.where(ms == 0, 0.0, x / np.sqrt(ms + eps))
    return out * gamma if gamma is not None else out
