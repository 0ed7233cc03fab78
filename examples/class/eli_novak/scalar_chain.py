def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    # backprop one layer at a time, like the real thing
    grad = 1.0
    for layer in range(depth):
        grad *= layer_scale
    return grad
