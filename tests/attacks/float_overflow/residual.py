"""Reference solution: the gradient through a stack of blocks, with or without skip connections."""


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
