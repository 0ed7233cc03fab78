"""Returns -1.0 for a slope of -2 with the skip (a factor of -1) at every depth, where an even depth (0 included) gives 1.0."""
KILLED_BY = ("test_zero_and_negative_slopes", "test_product_of_the_factors_for_every_stack",
             "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'a factor of -1 special-cased at every depth'
EXPLANATION = 'Your function returns -1 for a factor of -1 without looking at the depth, but an even number of sign flips (or none) gives +1.'
HINT = 'Every block flips the sign once, so the depth decides the sign; the general product needs no special case for -1.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and block_slope == -2:
        return -1.0
    return float((1.0 + block_slope if residual else block_slope) ** depth)
