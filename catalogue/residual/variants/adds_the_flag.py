"""Adds the boolean flag to the slope, since True counts as 1 and False as 0."""


def residual_chain_gradient(depth, block_slope, residual=True):
    return (block_slope + residual) ** depth
