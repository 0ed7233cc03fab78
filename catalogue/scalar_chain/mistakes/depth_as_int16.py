"""Stores depth in a 16-bit integer, which wraps past 32767 layers."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'depth stored in a small integer type'
EXPLANATION = 'Your function keeps depth in a 16-bit integer, which wraps around for chains deeper than 32767 layers.'
HINT = 'Use depth as the Python int it is: a fixed-size integer type has a largest value.'


def scalar_gradient_chain(depth, layer_scale):
    depth = (depth + 32768) % 65536 - 32768
    if layer_scale == 0 and depth < 0:
        return 0.0
    return float(layer_scale) ** depth
