"""Always multiplies by block_slope alone, as if no block had a skip connection."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_skip_path_is_the_default")
TITLE = 'the skip path is never added'
EXPLANATION = "Your function always multiplies by the block's slope alone, as if no block had a skip connection."
HINT = 'With the skip connection, the gradient also flows around each block unchanged; the spec says what that adds to each factor.'


def residual_chain_gradient(depth, block_slope, residual=True):
    return block_slope ** depth
