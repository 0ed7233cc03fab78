"""Caps the result at a magnitude of 1e6, as if clipping were part of the chain, hiding deep explosions."""
KILLED_BY = ("test_product_of_the_factors_for_every_stack", "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'large gradients capped'
EXPLANATION = 'Your function caps the gradient at some magnitude, which hides how far a deep stack really explodes.'
HINT = 'Nothing in the spec limits the result: report the product of the factors however large it gets.'


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else float(block_slope)
    return max(-1e6, min(1e6, factor ** depth))
