"""Fatima Haddad -- scalar chain"""


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    """
    The gradient at the input is the product of `depth` identical slopes,
    i.e. layer_scale ** depth. Using ** (not a loop) so it is exact.
    """
    return float(layer_scale ** depth)
