"""Starting weights sized so every layer passes the signal on at the same size.

A layer's output is a weighted sum over its fan-in, the number of inputs each unit adds up, so
the variance of that sum is the fan-in times the variance of one weight times the average
squared input. Draw the starting weights too small and every layer shrinks the signal (and, on
the way back, the gradient) a little; too large and every layer grows it; over thirty layers
"a little" becomes dozens of orders of magnitude. Initialization picks the weights' standard
deviation so that the factor per layer is about 1. Xavier (Glorot) initialization, made for
tanh and sigmoid units, balances the forward and the backward pass with
std = sqrt(2 / (fan_in + fan_out)): a layer with 100 inputs and 100 outputs gets
sqrt(2 / 200) = 0.1. He (Kaiming) initialization, made for ReLU, looks at the fan-in alone and
doubles the variance, because ReLU zeroes about half of its inputs and throws half the signal's
energy away: std = sqrt(2 / fan_in). For a fan-in of 50 the weight variance is 2 / 50 = 0.04,
so the standard deviation, the number a framework hands to its random generator, is
sqrt(0.04) = 0.2.
"""


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    """Return the standard deviation for a layer's random starting weights.

    Inputs (passed by position):
        kind: which rule to use, exactly "xavier" or "he" (lower case, no spaces). Any other
            string raises ValueError: other spellings ("Xavier", "HE", " he"), other names for
            the same rules ("glorot", "kaiming"), longer names ("xavier_uniform", "he_normal"),
            parts of the names ("xav", "h") and the empty string.
        fan_in: the number of inputs each unit of the layer adds up, an int >= 1 (up to 10**16).
        fan_out: the number of units in the layer, an int >= 1 (up to 10**16).

    Output:
        a float (a Python float; numpy.float64 is one too), the standard deviation (not the
        variance):
            "xavier": sqrt(2 / (fan_in + fan_out))
            "he":     sqrt(2 / fan_in)        (fan_out plays no part)
        The grader accepts a relative difference of 1e-9, so math.sqrt, numpy.sqrt and ** 0.5
        all work. It checks fans up to 10**16, whose standard deviations are near 1e-8, so a
        result rounded to a fixed number of decimals fails there: do not round.

    Raises:
        ValueError for any other kind (ValueError itself, or a subclass of it that you define).

    Example:
        >>> init_std("he", 50, 50)
        0.2
        >>> init_std("xavier", 100, 100)
        0.1
    """
    raise NotImplementedError
