"""Uses numpy.power, whose integer-power route can differ from layer_scale ** depth in the last bit."""
import numpy as np

KILLED_BY = ("test_exact_power_not_a_rounded_loop", "test_equals_the_power_for_every_depth_and_scale")
TITLE = "the power taken by a route other than Python's power operator"
EXPLANATION = "Your function computes the right power by a numerical route that can differ from Python's power operator in the last bit."
HINT = "The spec compares bit for bit with Python's power operator itself; it names which routes agree with it and which do not."


def scalar_gradient_chain(depth, layer_scale):
    return float(np.power(np.float64(layer_scale), depth))
