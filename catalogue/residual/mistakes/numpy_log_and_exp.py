"""Computes the product as np.exp(depth * np.log(factor)): nan (with a warning) for a negative factor."""
import numpy as np

KILLED_BY = ("test_returns_a_float_for_every_stack", "test_zero_and_negative_slopes")
TITLE = 'the product taken through numpy logarithms'
EXPLANATION = ("Your function goes through numpy's logarithm and exponential: for a negative factor the logarithm is "
               "nan, so the gradient comes back as nan instead of a number with a sign.")
HINT = "A logarithm exists only for positive numbers, and the spec's slopes can make a factor zero or negative."


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    with np.errstate(all="ignore"):
        return float(np.exp(depth * np.log(factor)))
