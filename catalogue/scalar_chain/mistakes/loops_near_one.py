"""Multiplies step by step when the scale is within 1e-6 of 1 in size, which rounds at every step."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale", "test_matches_reference_on_random_depths_and_scales")
TITLE = 'a loop for scales near 1'
EXPLANATION = 'For scales close to 1 your function multiplies in a loop, which rounds after every step and drifts from the power over a long chain.'
HINT = 'The spec names the one operation the grader compares with bit for bit, for every scale: no special route for scales near 1.'


def scalar_gradient_chain(depth, layer_scale):
    if abs(abs(layer_scale) - 1.0) < 1e-6:
        gradient = 1.0
        for _ in range(depth):
            gradient *= layer_scale
        return gradient
    return float(layer_scale) ** depth
