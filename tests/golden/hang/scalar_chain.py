def scalar_gradient_chain(depth, layer_scale):
    result = 1.0
    while depth != 0:  # never ends: depth is not decremented
        result *= layer_scale
    return result
