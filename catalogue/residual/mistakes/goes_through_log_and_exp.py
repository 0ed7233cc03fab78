"""Computes the product as exp(depth * log(factor)), which raises for a zero or negative factor."""
import math

KILLED_BY = ("test_zero_and_negative_slopes", "test_product_of_the_factors_for_every_stack")
TITLE = 'the product taken through logarithms'
EXPLANATION = 'Your function goes through a logarithm and an exponential, which fails for a factor of zero or a negative factor.'
HINT = "A logarithm exists only for positive numbers, and the spec's slopes can make a factor zero or negative."


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    return math.exp(depth * math.log(factor))
