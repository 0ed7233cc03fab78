"""Adds the per-block slopes (1 + depth * block_slope, the first-order guess) instead of multiplying the factors."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_factors_compound_not_add")
TITLE = 'the block factors are added instead of multiplied'
EXPLANATION = "Your function adds up the blocks' contributions (the first-order guess) instead of multiplying one factor per block."
HINT = 'Every block multiplies the gradient by its own factor, so the factors compound like in the scalar chain.'


def residual_chain_gradient(depth, block_slope, residual=True):
    return 1.0 + depth * block_slope if residual else block_slope ** depth
