"""Multiplies the scale by the depth instead of raising it to the depth-th power."""
KILLED_BY = ("test_ten_sigmoid_layers_shrink_to_a_millionth", "test_ten_steep_layers_explode")


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) * depth if depth else 1.0
