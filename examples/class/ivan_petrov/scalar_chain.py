def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    result = float(layer_scale) ** depth
    print("scalar_gradient_chain:", depth, layer_scale, "->", result)
    return result
