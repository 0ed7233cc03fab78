"""Takes the absolute value of each factor, so a negative slope never flips the gradient's sign."""
KILLED_BY = ("test_zero_and_negative_slopes",)


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    return abs(factor) ** depth
