"""Exercise 4 - residual connections.  Amara Okafor"""


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    if residual:
        per_block = 1.0 + block_slope   # identity path + the block's own slope
    else:
        per_block = float(block_slope)
    return per_block ** depth
