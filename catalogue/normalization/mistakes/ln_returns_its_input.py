"""Returns a copy of x as it is: every row comes out the same inside a batch and alone, but none is normalized."""
import numpy as np

KILLED_BY = ("test_layer_norm_rows_are_independent", "test_layer_norm_of_one_two_three_four")
TITLE = 'LayerNorm returns its input'
EXPLANATION = 'Your layer_norm hands back x unchanged: its rows keep their own mean and spread instead of being normalized.'
HINT = 'Each row is centred on its mean and divided by its standard deviation (with eps inside the square root).'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    return np.array(x, dtype=float)
