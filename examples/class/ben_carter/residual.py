def residual_chain_gradient(depth, block_slope, residual=True):
    grad = 1.0
    for _ in range(depth):
        if residual:
            grad = grad * (1 + block_slope)
        else:
            grad = grad * block_slope
    return grad
