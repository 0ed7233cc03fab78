"""Treats an empty chain as no gradient at all (0.0) instead of an untouched one (1.0)."""
KILLED_BY = ("test_zero_layers_leave_the_gradient_at_one",)


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if depth else 0.0
