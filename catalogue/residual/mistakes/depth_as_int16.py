"""Stores depth in a 16-bit integer, which wraps past 32767 blocks."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'depth stored in a small integer type'
EXPLANATION = 'Your function keeps depth in a 16-bit integer, which wraps around for stacks deeper than 32767 blocks.'
HINT = 'Use depth as the Python int it is: a fixed-size integer type has a largest value.'


def residual_chain_gradient(depth, block_slope, residual=True):
    depth = (depth + 32768) % 65536 - 32768
    return float((1.0 + block_slope if residual else block_slope) ** depth)
