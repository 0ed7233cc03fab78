# Chen Wei - HW3 part 1


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    # chain rule: d(out)/d(in) = product of all layer slopes = scale^depth
    return layer_scale ** depth * 1.0
