"""Returns 0.0 early for a factor under 1e-10 in size over more than 20 blocks, though the product is still in range there (1e-11 to the 21st is 1e-231)."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'zero for tiny factors over many blocks'
EXPLANATION = 'Your function answers 0.0 for a tiny factor over a deep stack, where the product is small but still a float.'
HINT = 'The grader sends products down to 1e-290, which a float holds: multiply all the factors, with no early answer.'


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    if abs(factor) < 1e-10 and depth > 20:
        return 0.0
    return float(factor ** depth)
