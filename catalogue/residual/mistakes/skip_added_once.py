"""Adds the skip path once after the chain, 1 + block_slope ** depth, instead of once in every block."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_zero_blocks_leave_the_gradient_at_one")


def residual_chain_gradient(depth, block_slope, residual=True):
    return 1.0 + block_slope ** depth if residual else block_slope ** depth
