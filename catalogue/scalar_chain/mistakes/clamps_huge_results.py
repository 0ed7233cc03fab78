"""Clamps the result to between -1e300 and 1e300."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'huge results clamped'
EXPLANATION = 'Your function caps the result at a fixed size, but every finite power up to the largest float is a valid answer.'
HINT = 'Return the power as it is, however close it gets to the float limit: no cap in either direction.'


def scalar_gradient_chain(depth, layer_scale):
    return max(-1e300, min(1e300, float(layer_scale) ** depth))
