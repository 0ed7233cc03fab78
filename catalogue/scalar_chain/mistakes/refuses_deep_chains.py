"""Raises ValueError for more than 100,000 layers, though the spec sets no limit on depth."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'deep chains refused'
EXPLANATION = 'Your function refuses chains deeper than 100,000 layers, but depth is any int >= 0.'
HINT = 'The spec puts no upper limit on depth: the power of a deep chain is computed just like a short one.'


def scalar_gradient_chain(depth, layer_scale):
    if depth > 100_000:
        raise ValueError("too many layers")
    return float(layer_scale) ** depth
