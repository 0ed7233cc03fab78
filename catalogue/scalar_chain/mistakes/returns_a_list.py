"""Wraps the answer in a one-element list instead of returning the float."""
KILLED_BY = ("test_returns_a_float",)


def scalar_gradient_chain(depth, layer_scale):
    return [float(layer_scale) ** depth]
