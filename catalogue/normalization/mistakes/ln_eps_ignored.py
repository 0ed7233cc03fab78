"""Divides by the bare standard deviation and never uses eps, so a constant row gives 0 / 0 = nan."""
import numpy as np

KILLED_BY = ("test_layer_norm_constant_row_is_all_zeros", "test_layer_norm_eps_goes_inside_the_square_root",
             "test_layer_norm_default_eps_is_1e_5")
TITLE = 'LayerNorm without eps'
EXPLANATION = 'Your layer_norm divides by the bare standard deviation and never uses eps, so a constant row becomes nan.'
HINT = "The spec says where eps goes: it keeps the division finite when a row's variance is zero."


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / x.std(axis=-1, keepdims=True)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
