def scalar_gradient_chain(depth, layer_scale)
    return layer_scale ** depth
