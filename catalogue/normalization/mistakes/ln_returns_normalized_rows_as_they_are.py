"""Returns x itself when every row already has mean 0 and variance 1, as if normalizing it again changed nothing; eps still divides it by sqrt(1 + eps)."""
import numpy as np

KILLED_BY = ("test_layer_norm_eps_goes_inside_the_square_root", "test_layer_norm_default_eps_is_1e_5",
             "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'normalized rows returned as they are'
EXPLANATION = ('Your layer_norm returns rows that already have mean 0 and variance 1 unchanged, but eps is under '
               'the square root for every row: such a row comes back divided by sqrt(1 + eps).')
HINT = 'Apply the formula to every row, including rows that already look normalized.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    if (gamma is None and beta is None and x.size and np.allclose(x.mean(axis=-1), 0.0, rtol=0, atol=1e-12)
            and np.allclose(x.var(axis=-1), 1.0, rtol=0, atol=1e-12)):
        return x
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
