def residual_chain_gradient(depth, block_slope, residual=True):
    if residual:
        return (1 + block_slope) ** depth

    # without skips: multiply block by block
    grad = 1.0
    d = depth
    while d > 0:
        grad = grad * block_slope
    return grad
