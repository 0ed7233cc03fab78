"""Builds an array of the per-block factors and returns numpy's product, a numpy float64."""
import numpy as np


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    factors = np.full(depth, block_slope + (1.0 if residual else 0.0))
    return np.prod(factors)
