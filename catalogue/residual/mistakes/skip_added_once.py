"""Adds the skip path once after the chain, 1 + block_slope ** depth, instead of once in every block."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_zero_blocks_leave_the_gradient_at_one")
TITLE = 'the skip path added once for the whole stack'
EXPLANATION = 'Your function adds the skip path once around the whole chain instead of once in every block.'
HINT = "Each block has its own skip connection, so the skip belongs inside every block's factor."


def residual_chain_gradient(depth, block_slope, residual=True):
    return 1.0 + block_slope ** depth if residual else block_slope ** depth
