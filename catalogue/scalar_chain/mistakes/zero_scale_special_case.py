"""Special-cases a zero slope as "no effect" and returns 1.0 for it."""
KILLED_BY = ("test_zero_slope_kills_the_gradient",)


def scalar_gradient_chain(depth, layer_scale):
    return 1.0 if layer_scale == 0 else float(layer_scale) ** depth
