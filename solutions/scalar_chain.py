"""Reference solution: a scalar gradient chain."""


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    return float(layer_scale) ** depth
