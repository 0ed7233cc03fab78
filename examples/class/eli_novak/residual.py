def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    grad = 1.0
    for _ in range(depth):
        local = block_slope + 1 if residual else block_slope
        grad *= local
    return grad
