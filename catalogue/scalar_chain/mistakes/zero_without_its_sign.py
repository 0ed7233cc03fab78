"""Returns 0.0 for every zero result, where ** gives -0.0 for a negative zero (or tiny negative scale) to an odd depth."""
KILLED_BY = ("test_equals_the_power_for_every_depth_and_scale",)
TITLE = 'the sign of a zero result dropped'
EXPLANATION = 'Your function returns 0.0 where the power is a negative zero, -0.0.'
HINT = 'A zero keeps its sign in a power: return exactly what the power operator gives, with no special case for zero.'


def scalar_gradient_chain(depth, layer_scale):
    result = float(layer_scale) ** depth
    return 0.0 if result == 0 else result
