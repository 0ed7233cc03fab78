"""Converts the result to float32, losing the float64 precision of the input."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_the_shape_and_float64",)
TITLE = 'LayerNorm returns single precision'
EXPLANATION = "Your layer_norm converts its result to float32 and loses the input's double precision."
HINT = "Keep the result in double precision, as the spec's Output asks."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out.astype(np.float32)
