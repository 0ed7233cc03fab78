"""Folds the factors with functools.reduce starting from the int 1, so depth 0 returns the int 1, not the float 1.0."""
import functools
import operator

KILLED_BY = ("test_returns_a_float_for_every_stack",)


def residual_chain_gradient(depth, block_slope, residual=True):
    factors = [(1 + block_slope) if residual else block_slope for _ in range(depth)]
    return functools.reduce(operator.mul, factors, 1)
