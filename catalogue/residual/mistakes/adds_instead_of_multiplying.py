"""Adds the per-block slopes (1 + depth * block_slope, the first-order guess) instead of multiplying the factors."""
KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_factors_compound_not_add")


def residual_chain_gradient(depth, block_slope, residual=True):
    return 1.0 + depth * block_slope if residual else block_slope ** depth
