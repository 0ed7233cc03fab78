# Kofi Mensah
# Exercise: scalar gradient chain


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    gradient = layer_scale ** depth  # same factor at each of the depth layers
    return float(gradient)
