"""Fatima Haddad -- residual connections"""


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    """Gradient reaching the input of `depth` blocks, with or without skips."""
    per_block = block_slope + 1.0 if residual else block_slope
    total = 1.0
    for _ in range(depth):
        total *= per_block
    return total
