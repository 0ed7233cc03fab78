"""Makes residual default to False, so leaving the argument out drops the skip path."""
KILLED_BY = ("test_skip_path_is_the_default",)


def residual_chain_gradient(depth, block_slope, residual=False):
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
