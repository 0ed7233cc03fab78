"""Reshapes the input to a 2-D (rows, d) batch and returns it without restoring the original shape."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_the_shape_and_float64", "test_layer_norm_of_one_two_three_four")
TITLE = 'LayerNorm returns the reshaped array'
EXPLANATION = "Your layer_norm reshapes the input into rows and returns that shape instead of the input's own shape."
HINT = 'The output must have the same shape as the input, whatever its number of dimensions.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    x = x.reshape(-1, x.shape[-1])
    out = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
