"""A gradient is a product of slopes.

Backpropagation hands every layer the gradient from the layer above and multiplies it by that
layer's own slope before passing it further down. The gradient that reaches the first layer of a
deep stack is therefore a product with one factor per layer, and products compound. A sigmoid
passes back at most 0.25 of what it receives, so ten sigmoid layers leave 0.25**10 = 9.5e-7 of
the signal, about a millionth: the early layers barely learn. A slope of 1.5 per layer compounds
the other way, to 57.7 after ten layers. Depth turns a small per-layer factor into an enormous one.
"""


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    """Return the gradient left after `depth` layers that each multiply it by `layer_scale`.

    Inputs:
        depth: the number of layers, an int >= 0. With zero layers the gradient is untouched (1.0).
        layer_scale: the factor every layer multiplies the gradient by; any finite float,
            including 0.0 and negative values (a negative slope flips the sign at every layer).

    Output:
        a float exactly equal to ``layer_scale ** depth``: the grader compares with ``==``.
        A loop that multiplies step by step rounds at every step and can differ in the last
        digits (1.1 * 1.1 * 1.1 * 1.1 is not 1.1 ** 4), and numpy.power takes another route for
        integer powers; compute the power with ** (or math.pow, which agrees with it).

    Example:
        >>> scalar_gradient_chain(10, 0.25)
        9.5367431640625e-07
    """
    # each layer multiplies by layer_scale, so after depth layers it's layer_scale to the power depth
    return layer_scale ** depth
