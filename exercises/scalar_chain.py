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

    Inputs (passed by position):
        depth: the number of layers, an int >= 0. With zero layers the gradient is untouched (1.0).
            Chains can be very deep: the grader sends up to 250,001 layers.
        layer_scale: the factor every layer multiplies the gradient by; any finite float,
            including 0.0, negative values (a negative slope flips the sign at every layer), tiny
            and huge ones. The grader only sends pairs whose power stays finite.

    Output:
        a float (a Python float; numpy.float64 is one too, but not an int, even at depth 0, and
        not an array) exactly equal to ``layer_scale ** depth``, bit for bit: the sign of a zero
        counts too (``(-0.0) ** 3`` is -0.0, not 0.0, though ``-0.0 == 0.0``). The contract is
        the ** operator itself, not the exact mathematical power: a result that differs from **
        in the last bit counts as wrong, even if it happens to be closer to the true value. A
        loop that multiplies step by step rounds at every step (1.1 * 1.1 * 1.1 * 1.1 is not
        1.1 ** 4), and numpy.power, repeated squaring and exp/log take other routes; compute
        the power with ** (or math.pow, which agrees with it).

    Example:
        >>> scalar_gradient_chain(10, 0.25)
        9.5367431640625e-07
    """
    raise NotImplementedError
