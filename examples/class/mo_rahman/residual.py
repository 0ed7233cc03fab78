def residual_chain_gradient(depth, block_slope, residual=True):
    slope = block_slope + 1 if residual else block_slope
    return slope ** depth
