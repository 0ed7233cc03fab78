"""Uses numpy.power, whose integer-power route can differ from layer_scale ** depth in the last bit."""
import numpy as np

KILLED_BY = ("test_exact_power_not_a_rounded_loop", "test_equals_the_power_for_every_depth_and_scale")


def scalar_gradient_chain(depth, layer_scale):
    return float(np.power(np.float64(layer_scale), depth))
