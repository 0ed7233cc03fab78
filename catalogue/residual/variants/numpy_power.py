"""Uses numpy.power, which may differ from ** in the last bits but well inside the tolerance."""
import numpy as np


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = np.float64(block_slope) + 1.0 if residual else np.float64(block_slope)
    return np.power(factor, depth)
