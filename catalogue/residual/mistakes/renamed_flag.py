"""Renames the flag to skip, so the contract's keyword call with residual=False fails."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_ten_plain_blocks_vanish")
TITLE = 'the residual flag has another name'
EXPLANATION = 'Your function names its flag differently, so a call that passes residual by name fails.'
HINT = 'Keep the parameter names of the stub: callers pass the flag by its name.'


def residual_chain_gradient(depth, block_slope, skip=True):
    factor = 1.0 + block_slope if skip else float(block_slope)
    return factor ** depth
