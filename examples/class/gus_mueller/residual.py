def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    base = block_slope + 1 if residual else block_slope
    return float(base) ** depth
