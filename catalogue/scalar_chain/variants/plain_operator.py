"""Returns layer_scale ** depth with no conversion at all."""


def scalar_gradient_chain(depth, layer_scale):
    return layer_scale ** depth
