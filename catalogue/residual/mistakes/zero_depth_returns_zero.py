"""Treats a stack of no blocks as passing no gradient (0.0) instead of an untouched one (1.0)."""
KILLED_BY = ("test_zero_blocks_leave_the_gradient_at_one",)


def residual_chain_gradient(depth, block_slope, residual=True):
    if depth == 0:
        return 0.0
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
