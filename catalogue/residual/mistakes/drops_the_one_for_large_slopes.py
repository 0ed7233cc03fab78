"""With the skip and a slope above 100 in size, uses the slope alone as the factor, dropping the 1."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'the skip path dropped for large slopes'
EXPLANATION = 'For large slopes your function leaves the 1 of the skip path out of the factor, which still counts however large the slope is.'
HINT = 'With the skip connection every block\'s factor is 1 + block_slope for every slope, large ones included.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and abs(block_slope) > 100:
        return float(block_slope) ** depth
    return float((1.0 + block_slope if residual else block_slope) ** depth)
