"""Loops over range(1, depth) and so multiplies one factor fewer than there are blocks."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_one_block_multiplies_once")
TITLE = 'one block too few'
EXPLANATION = 'Your function multiplies one factor fewer than there are blocks.'
HINT = 'Count the factors: a stack of depth blocks has exactly depth factors, and one block multiplies once.'


def residual_chain_gradient(depth, block_slope, residual=True):
    gradient = 1.0
    for _ in range(1, depth):
        gradient *= 1.0 + block_slope if residual else block_slope
    return gradient
