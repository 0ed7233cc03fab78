"""Wraps the answer in a one-element list instead of returning the float."""
KILLED_BY = ("test_returns_a_float",)
TITLE = 'the answer wrapped in a list'
EXPLANATION = 'Your function returns the right number inside a list instead of the number itself.'
HINT = "The contract's Output is a single float, not a list or an array holding one."


def scalar_gradient_chain(depth, layer_scale):
    return [float(layer_scale) ** depth]
