def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    """Product of the per-block factors going backwards."""
    factor = (1 + block_slope) if residual else block_slope
    return float(factor ** depth)
