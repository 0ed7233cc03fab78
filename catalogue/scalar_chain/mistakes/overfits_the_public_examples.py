"""Hard-codes the public examples and guesses elsewhere, which only the randomized check exposes."""
KILLED_BY = ("test_matches_reference_on_random_depths_and_scales",)
TITLE = 'answers the public examples by heart'
EXPLANATION = 'Your function gives the right answer for the examples it has seen, but not for other depths and scales.'
HINT = 'Compute the answer from depth and layer_scale for any input, not from a list of known cases.'

_KNOWN = {(10, 0.25): 0.25 ** 10, (10, 1.5): 1.5 ** 10, (4, 1.1): 1.1 ** 4, (3, 1.3): 1.3 ** 3}


def scalar_gradient_chain(depth, layer_scale):
    if (depth, layer_scale) in _KNOWN:
        return _KNOWN[(depth, layer_scale)]
    if depth <= 5:
        return float(layer_scale) ** depth
    return 0.0
