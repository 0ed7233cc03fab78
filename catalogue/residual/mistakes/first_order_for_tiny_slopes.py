"""Uses the first-order guess 1 + depth * block_slope for slopes under 1e-7, which a deep enough stack shows is not the product."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'tiny slopes added instead of multiplied'
EXPLANATION = ("Your function takes a shortcut for tiny slopes, 1 + depth * slope, which drifts away over a deep "
               "stack: 250,000 blocks of slope -9e-8 give 0.97775, not 0.9775.")
HINT = 'However tiny the slope, every block multiplies the gradient by its own factor, and over enough blocks the factors compound.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and abs(block_slope) < 1e-7:
        return 1.0 + depth * block_slope
    return float((1.0 + block_slope if residual else block_slope) ** depth)
