"""Uses math.pow, which computes the same correctly rounded power as the ** operator."""
import math


def scalar_gradient_chain(depth, layer_scale):
    return math.pow(layer_scale, depth)
