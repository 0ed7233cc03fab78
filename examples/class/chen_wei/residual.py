# Chen Wei - HW3 part 4


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    plain = block_slope ** depth
    if residual:
        # skip connection adds the identity path
        return 1 + plain
    return plain
