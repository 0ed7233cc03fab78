"""Uses math.prod, which returns the int 1 for an empty stack, a correct value for depth 0."""
import math


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1 + block_slope if residual else block_slope
    return math.prod([factor] * depth)
