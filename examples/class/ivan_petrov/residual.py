def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1 + block_slope if residual else block_slope
    grad = 1.0
    for block in range(depth):
        grad *= factor
        print(f"block {block}: factor={factor} grad={grad}")
    return grad
