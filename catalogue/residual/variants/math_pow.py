"""Raises the factor to the depth with math.pow."""
import math


def residual_chain_gradient(depth, block_slope, residual=True):
    return math.pow(1 + block_slope if residual else block_slope, depth)
