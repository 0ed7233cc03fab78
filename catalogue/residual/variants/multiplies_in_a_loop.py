"""Multiplies the factor in once per block, as the lesson's loop does."""


def residual_chain_gradient(depth, block_slope, residual=True):
    grad = 1.0
    for _ in range(depth):
        grad *= (1.0 + block_slope) if residual else block_slope
    return grad
