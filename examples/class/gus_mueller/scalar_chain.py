def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    # 0 layers -> 1.0, python's ** handles that already
    g = float(layer_scale) ** depth
    return g
