"""exp(depth * log1p(slope)) above a factor of 0 and a plain power otherwise, within 1e-9 of the product."""

import math
def residual_chain_gradient(depth, block_slope, residual=True):
    if depth == 0:
        return 1.0
    if residual:
        if block_slope > -1:
            return math.exp(depth * math.log1p(block_slope))
        return (1 + block_slope) ** depth
    return block_slope ** depth
