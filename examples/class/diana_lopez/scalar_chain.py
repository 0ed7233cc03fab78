def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    """Return layer_scale ** depth (as a float)."""
    if depth == 0:
        return 1.0  # no layers -> gradient passes through untouched
    return float(layer_scale) ** depth
