"""Returns zeros of x's shape: every row comes out the same inside a batch and alone, but nothing is normalized."""
import numpy as np

KILLED_BY = ("test_rms_norm_rows_are_independent", "test_rms_norm_of_one_two_three_four")
TITLE = 'RMSNorm returns zeros'
EXPLANATION = 'Your rms_norm hands back zeros of the right shape, so no row is divided by its root-mean-square.'
HINT = 'Each row is divided by the square root of the mean of its squares plus eps.'


def rms_norm(x, eps=1e-6, gamma=None):
    return np.zeros(np.shape(x))
