def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    """Gradient after `depth` layers with slope `layer_scale` each."""
    return layer_scale ** depth if depth > 0 else 1.0
