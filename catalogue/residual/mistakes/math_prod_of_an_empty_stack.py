"""Uses math.prod, which returns the int 1 for an empty stack, where the spec promises the float 1.0."""
import math

KILLED_BY = ("test_returns_a_float_for_every_stack",)


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1 + block_slope if residual else block_slope
    return math.prod([factor] * depth)
