"""Returns 1.0 for a residual stack whose slope is under 1e-12 in size, though 100,000 such blocks move the gradient by 1e-8."""

KILLED_BY = ("test_product_of_the_factors_for_every_stack",)
TITLE = 'tiny slopes skipped'
EXPLANATION = ('Your function treats a very small slope as no slope at all, but over a deep stack the factors '
               '(1 + slope) compound: 100,000 blocks of slope 1e-13 give 1.00000001.')
HINT = 'Multiply the factors for every slope, however small: what is negligible in one block adds up over many.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and abs(block_slope) < 1e-12:
        return 1.0
    return float((1.0 + block_slope if residual else block_slope) ** depth)
