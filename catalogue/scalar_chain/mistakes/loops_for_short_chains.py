"""Multiplies step by step for chains of up to three layers, which rounds at every step."""
KILLED_BY = ("test_exact_power_not_a_rounded_loop", "test_equals_the_power_for_every_depth_and_scale")
TITLE = 'a loop for short chains'
EXPLANATION = 'For short chains your function multiplies in a loop, which rounds after every step and is not always what ** gives, even for two or three layers.'
HINT = 'The spec names the one operation the grader compares with bit for bit, for every depth: no special route for short chains.'


def scalar_gradient_chain(depth, layer_scale):
    if depth <= 3:
        gradient = 1.0
        for _ in range(depth):
            gradient *= layer_scale
        return gradient
    return float(layer_scale) ** depth
