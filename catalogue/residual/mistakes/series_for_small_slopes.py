"""For slopes under 1e-3 uses the truncated series exp(depth * s - depth * s**2 / 2) instead of the product."""
import math

KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'a truncated series for small slopes'
EXPLANATION = 'For small slopes your function uses a truncated series for the product, which drifts beyond the tolerance over deep stacks.'
HINT = 'However small the slope, multiply the depth factors themselves (or take the power): a series cut after a few terms is not the product.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and 0 < abs(block_slope) < 1e-3:
        return math.exp(depth * block_slope - depth * block_slope ** 2 / 2)
    return float((1.0 + block_slope if residual else block_slope) ** depth)
