"""Counts one layer too few: raises the scale to depth - 1."""
KILLED_BY = ("test_ten_sigmoid_layers_shrink_to_a_millionth", "test_one_layer_scales_once", "test_zero_layers_leave_the_gradient_at_one")
TITLE = 'one layer too few'
EXPLANATION = 'Your function counts one layer fewer than it is given, so every answer is off by one factor of the slope.'
HINT = 'Count the factors: with depth layers there are exactly depth slopes in the product, and zero layers leave the gradient untouched.'


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** (depth - 1) if depth > 0 else 1.0 / layer_scale if layer_scale else 1.0
