"""Always multiplies by 1 + block_slope, ignoring residual=False."""
KILLED_BY = ("test_ten_plain_blocks_vanish",)
TITLE = 'the residual flag is ignored'
EXPLANATION = 'Your function always adds the skip path, even when residual is False.'
HINT = "Without the skip connection a block's factor is only its own slope; read what the flag changes in the spec."


def residual_chain_gradient(depth, block_slope, residual=True):
    return (1.0 + block_slope) ** depth
