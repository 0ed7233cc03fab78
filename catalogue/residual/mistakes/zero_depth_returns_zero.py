"""Treats a stack of no blocks as passing no gradient (0.0) instead of an untouched one (1.0)."""
KILLED_BY = ("test_zero_blocks_leave_the_gradient_at_one",)
TITLE = 'zero blocks give no gradient at all'
EXPLANATION = 'For a stack of no blocks your function returns 0.0 instead of leaving the gradient untouched.'
HINT = 'With no blocks nothing multiplies the gradient: the spec says what it stays at.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if depth == 0:
        return 0.0
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
