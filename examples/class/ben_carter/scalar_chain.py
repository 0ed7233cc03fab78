def scalar_gradient_chain(depth, layer_scale):
    """gradient after depth layers = layer_scale^depth"""
    result = layer_scale ** depth
    return float(result)
