"""Hard-codes axis=1, which is the feature axis only for 2-D input (1-D fails, 3-D uses the sequence axis)."""
import numpy as np

KILLED_BY = ("test_rms_norm_handles_3d_input", "test_rms_norm_of_one_two_three_four")
TITLE = 'RMSNorm works for 2-D input only'
EXPLANATION = 'Your rms_norm takes its statistics along a fixed axis that is the feature axis only for 2-D input.'
HINT = 'The spec says the features are along the last axis, for inputs of any number of dimensions.'


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
