"""Folds the factors with functools.reduce starting from the int 1, so depth 0 returns the int 1, not the float 1.0."""
import functools
import operator

KILLED_BY = ("test_returns_a_float_for_every_stack",)
TITLE = 'an empty stack returns the integer 1 (from a fold)'
EXPLANATION = 'For a stack of no blocks your function returns the integer 1, the start value of its fold, where the spec promises a float.'
HINT = 'Read the Output section again: a float for every stack, including an empty one; check the start value of your product.'
SAME_AS = ('int_one_at_depth_zero', 'math_prod_of_an_empty_stack')


def residual_chain_gradient(depth, block_slope, residual=True):
    factors = [(1 + block_slope) if residual else block_slope for _ in range(depth)]
    return functools.reduce(operator.mul, factors, 1)
