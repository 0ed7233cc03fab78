def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    """(1 + s)^depth with skip connections, s^depth without."""
    factors = [(1 + block_slope) if residual else block_slope for _ in range(depth)]
    result = 1.0
    for f in factors:
        result *= f
    return result
