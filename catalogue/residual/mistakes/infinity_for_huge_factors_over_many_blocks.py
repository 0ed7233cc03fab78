"""Returns infinity early for a factor over 1e6 in size over more than 30 blocks, though the product is still in range there (1e7 to the 31st is 1e217)."""
import math

KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'infinity for huge factors over many blocks'
EXPLANATION = 'Your function answers infinity for a huge factor over a deep stack, where the product is large but still a float.'
HINT = 'The grader sends products up to 1e290, which a float holds: multiply all the factors, with no early answer.'


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    if abs(factor) > 1e6 and depth > 30:
        return math.inf
    return float(factor ** depth)
