"""Counts one layer too few: raises the scale to depth - 1."""
KILLED_BY = ("test_ten_sigmoid_layers_shrink_to_a_millionth", "test_one_layer_scales_once", "test_zero_layers_leave_the_gradient_at_one")


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** (depth - 1) if depth > 0 else 1.0 / layer_scale if layer_scale else 1.0
