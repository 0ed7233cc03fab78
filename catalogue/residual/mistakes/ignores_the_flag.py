"""Always multiplies by 1 + block_slope, ignoring residual=False."""
KILLED_BY = ("test_ten_plain_blocks_vanish",)


def residual_chain_gradient(depth, block_slope, residual=True):
    return (1.0 + block_slope) ** depth
