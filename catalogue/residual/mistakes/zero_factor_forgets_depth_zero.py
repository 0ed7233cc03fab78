"""Returns 0.0 straight away for a slope of -1 with the skip (a factor of 0), also for depth 0, where the gradient is 1.0."""
KILLED_BY = ("test_zero_and_negative_slopes", "test_product_of_the_factors_for_every_stack",
             "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'a zero factor special-cased at every depth'
EXPLANATION = 'Your function returns 0 for a zero factor without looking at the depth, but with no blocks there is no factor at all.'
HINT = 'The product of no factors is 1 whatever the slope; the general product needs no special case for a zero factor.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and block_slope == -1:
        return 0.0
    return float((1.0 + block_slope if residual else block_slope) ** depth)
