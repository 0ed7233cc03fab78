"""Hard-codes the public examples and guesses elsewhere, which only the randomized check exposes."""
KILLED_BY = ("test_matches_reference_on_random_depths_and_scales",)

_KNOWN = {(10, 0.25): 0.25 ** 10, (10, 1.5): 1.5 ** 10, (4, 1.1): 1.1 ** 4, (3, 1.3): 1.3 ** 3}


def scalar_gradient_chain(depth, layer_scale):
    if (depth, layer_scale) in _KNOWN:
        return _KNOWN[(depth, layer_scale)]
    if depth <= 5:
        return float(layer_scale) ** depth
    return 0.0
