"""Returns the int 1 for an empty chain, where layer_scale ** 0 is the float 1.0."""
KILLED_BY = ("test_returns_a_float",)


def scalar_gradient_chain(depth, layer_scale):
    if depth == 0:
        return 1
    return float(layer_scale) ** depth
