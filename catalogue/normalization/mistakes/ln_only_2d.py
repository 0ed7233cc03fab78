"""Hard-codes axis=1, which is the feature axis only for 2-D input (1-D fails, 3-D uses the sequence axis)."""
import numpy as np

KILLED_BY = ("test_layer_norm_handles_3d_input", "test_layer_norm_of_one_two_three_four")
TITLE = 'LayerNorm works for 2-D input only'
EXPLANATION = 'Your layer_norm takes its statistics along a fixed axis that is the feature axis only for 2-D input.'
HINT = 'The spec says the features are along the last axis, for inputs of any number of dimensions.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
