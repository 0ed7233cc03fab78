"""Returns 0.0 early for a scale under 1e-10 in size over more than 20 layers, though the power is still a normal number there (1e-11 to the 21st is 1e-231)."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'zero for tiny scales over many layers'
EXPLANATION = 'Your function answers 0.0 for a tiny scale over a long chain, where the power is small but still a float.'
HINT = 'A float reaches down to about 1e-308 (and subnormals further): compute the power for every depth and scale, with no early answer.'


def scalar_gradient_chain(depth, layer_scale):
    if abs(layer_scale) < 1e-10 and depth > 20:
        return 0.0
    return float(layer_scale) ** depth
