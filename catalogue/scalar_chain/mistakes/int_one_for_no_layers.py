"""Returns the int 1 for an empty chain, where layer_scale ** 0 is the float 1.0."""
KILLED_BY = ("test_returns_a_float",)
TITLE = 'an empty chain returns the integer 1'
EXPLANATION = 'With zero layers your function returns the integer 1, but the contract asks for a float even at depth 0.'
HINT = 'Read the Output section again: a Python float, not an int, even when there are no layers.'


def scalar_gradient_chain(depth, layer_scale):
    if depth == 0:
        return 1
    return float(layer_scale) ** depth
