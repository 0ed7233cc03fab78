"""Computes the power as np.exp(depth * np.log(layer_scale)): nan (with a warning) for a negative scale."""
import numpy as np

KILLED_BY = ("test_returns_a_float", "test_negative_slope_flips_the_sign_each_layer")
TITLE = 'the power taken through logarithms'
EXPLANATION = ("Your function goes through numpy's logarithm and exponential: for a negative scale the logarithm is "
               "nan, so the gradient comes back as nan instead of a number with a sign.")
HINT = "A logarithm exists only for positive numbers, and the spec's scales can be zero or negative."


def scalar_gradient_chain(depth, layer_scale):
    with np.errstate(all="ignore"):
        return float(np.exp(depth * np.log(layer_scale)))
