"""Multiplies in a loop, which rounds after every step and misses the exact power."""
KILLED_BY = ("test_exact_power_not_a_rounded_loop", "test_equals_the_power_for_every_depth_and_scale",
             "test_matches_reference_on_random_depths_and_scales")
TITLE = 'a loop that rounds at every step'
EXPLANATION = 'Your function multiplies step by step in a loop, which rounds after every multiplication and drifts from the exact power.'
HINT = 'The spec explains why a step-by-step product is not bit-for-bit equal to the power, and which operation the grader compares with.'


def scalar_gradient_chain(depth, layer_scale):
    gradient = 1.0
    for _ in range(depth):
        gradient *= layer_scale
    return gradient
