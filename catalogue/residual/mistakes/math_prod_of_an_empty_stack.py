"""Uses math.prod, which returns the int 1 for an empty stack, where the spec promises the float 1.0."""
import math

KILLED_BY = ("test_returns_a_float_for_every_stack",)
TITLE = 'an empty stack returns the integer 1 (from a product helper)'
EXPLANATION = 'For a stack of no blocks your function returns the integer 1, which is what an empty product gives, where the spec promises a float.'
HINT = 'Read the Output section again: a float for every stack, including an empty one.'
SAME_AS = ('int_one_at_depth_zero', 'functools_reduce_from_int_one')


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1 + block_slope if residual else block_slope
    return math.prod([factor] * depth)
