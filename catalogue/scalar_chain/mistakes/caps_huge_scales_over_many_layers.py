"""Returns 1e300 (with the power's sign) early for a scale over 1e10 in size over more than 20 layers, though the power is finite and different there (1e11 to the 21st is 1e231)."""
import math

KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'a cap for huge scales over many layers'
EXPLANATION = 'Your function answers a fixed huge number for a huge scale over a long chain, where the power is another finite float.'
HINT = 'A float reaches up to about 1.8e308: compute the power for every depth and scale, with no early answer for large ones.'


def scalar_gradient_chain(depth, layer_scale):
    if abs(layer_scale) > 1e10 and depth > 20:
        return math.copysign(1e300, layer_scale) if depth % 2 else 1e300
    return float(layer_scale) ** depth
