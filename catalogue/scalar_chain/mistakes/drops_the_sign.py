"""Takes the absolute value of the slope, so negative slopes never flip the sign."""
KILLED_BY = ("test_negative_slope_flips_the_sign_each_layer",)
TITLE = 'a negative slope loses its sign'
EXPLANATION = 'Your function treats a negative slope as if it were positive, so the gradient never changes sign from layer to layer.'
HINT = "A negative slope flips the sign at every layer; the spec's inputs include negative values. Where does the sign get lost?"


def scalar_gradient_chain(depth, layer_scale):
    return abs(float(layer_scale)) ** depth
