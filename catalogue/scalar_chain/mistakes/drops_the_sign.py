"""Takes the absolute value of the slope, so negative slopes never flip the sign."""
KILLED_BY = ("test_negative_slope_flips_the_sign_each_layer",)


def scalar_gradient_chain(depth, layer_scale):
    return abs(float(layer_scale)) ** depth
