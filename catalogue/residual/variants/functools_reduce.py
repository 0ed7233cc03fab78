"""Folds the factors with functools.reduce and operator.mul, starting from the float 1.0."""
import functools
import operator


def residual_chain_gradient(depth, block_slope, residual=True):
    factors = [(1 + block_slope) if residual else block_slope for _ in range(depth)]
    return functools.reduce(operator.mul, factors, 1.0)
