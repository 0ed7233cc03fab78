"""Makes residual keyword-only, so the contract's positional call residual_chain_gradient(10, 0.025, False) fails."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_ten_plain_blocks_vanish")
TITLE = 'the residual flag cannot be passed by position'
EXPLANATION = 'Your function accepts residual only as a keyword, so a call that passes it by position fails.'
HINT = 'Keep the signature of the stub: the flag is an ordinary third parameter.'


def residual_chain_gradient(depth, block_slope, *, residual=True):
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
