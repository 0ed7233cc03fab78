"""Uses math.prod with start=1.0, so an empty stack gives the float 1.0."""
import math


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1 + block_slope if residual else block_slope
    return math.prod([factor] * depth, start=1.0)
