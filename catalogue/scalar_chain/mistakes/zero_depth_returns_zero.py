"""Treats an empty chain as no gradient at all (0.0) instead of an untouched one (1.0)."""
KILLED_BY = ("test_zero_layers_leave_the_gradient_at_one",)
TITLE = 'zero layers give no gradient at all'
EXPLANATION = 'With zero layers your function returns 0.0, as if no gradient got through, instead of leaving the gradient untouched.'
HINT = 'With no layers nothing multiplies the gradient: the spec says what it stays at.'


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if depth else 0.0
