"""Returns 1.0 at once for a scale of size 1, so (-1.0) ** 3 comes back as 1.0 instead of -1.0."""

KILLED_BY = ("test_negative_slope_flips_the_sign_each_layer", "test_equals_the_power_for_every_depth_and_scale")
TITLE = 'a shortcut for a slope of size 1'
EXPLANATION = 'Your function returns 1.0 whenever the slope has size 1, but a slope of -1 flips the sign at every layer.'
HINT = 'A slope of -1 keeps the size of the gradient but not its sign: no shortcut is needed for any slope.'


def scalar_gradient_chain(depth, layer_scale):
    if abs(layer_scale) == 1.0:
        return 1.0
    return layer_scale ** depth
