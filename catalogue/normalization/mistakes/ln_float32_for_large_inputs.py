"""Computes in float32 when x has more than 50,000 entries, to save memory, and so returns float32 for large batches."""
import numpy as np

KILLED_BY = ("test_layer_norm_keeps_the_shape_and_float64",)
TITLE = 'large inputs computed in single precision'
EXPLANATION = ('Your layer_norm switches to float32 for large inputs, but the output is float64 whatever the '
               'size of x: a batch of 52,000 entries came back in float32.')
HINT = 'Keep the computation and the result in float64 for inputs of every size.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    if x.size > 50000:
        x = x.astype(np.float32)
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
