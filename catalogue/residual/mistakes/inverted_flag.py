"""Reads the flag the wrong way round, adding the skip when residual is False."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_ten_plain_blocks_vanish", "test_skip_path_is_the_default")
TITLE = 'the residual flag read the wrong way round'
EXPLANATION = 'Your function adds the skip path when residual is False and leaves it out when residual is True.'
HINT = 'Check which value of the flag means the block has a skip connection.'


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = block_slope if residual else 1.0 + block_slope
    return factor ** depth
