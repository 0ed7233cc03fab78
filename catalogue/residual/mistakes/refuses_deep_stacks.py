"""Raises ValueError for more than 100,000 blocks, though the spec sets no limit on depth."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'deep stacks refused'
EXPLANATION = 'Your function refuses stacks deeper than 100,000 blocks, but depth is any int >= 0.'
HINT = 'The spec puts no upper limit on depth: a deep stack is just more factors in the product.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if depth > 100_000:
        raise ValueError("too many blocks")
    return float((1.0 + block_slope if residual else block_slope) ** depth)
