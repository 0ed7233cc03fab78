"""Special-cases a zero slope as "no effect" and returns 1.0 for it."""
KILLED_BY = ("test_zero_slope_kills_the_gradient",)
TITLE = 'a zero slope treated as no effect'
EXPLANATION = 'Your function treats a slope of 0 as if the layer did nothing, but a layer with slope 0 passes no gradient at all.'
HINT = 'Multiplying by 0 at any layer leaves nothing for the layers below; check what you return when layer_scale is 0.'


def scalar_gradient_chain(depth, layer_scale):
    return 1.0 if layer_scale == 0 else float(layer_scale) ** depth
