"""Multiplies the scale by the depth instead of raising it to the depth-th power."""
KILLED_BY = ("test_ten_sigmoid_layers_shrink_to_a_millionth", "test_ten_steep_layers_explode")
TITLE = 'the scale is multiplied by the depth instead of compounded'
EXPLANATION = 'Your function multiplies the slope by the number of layers, as if each layer added its slope, instead of every layer multiplying the gradient again.'
HINT = 'Each layer multiplies what it receives by its slope, so the factors compound: think of ten layers as ten factors in one product.'


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) * depth if depth else 1.0
