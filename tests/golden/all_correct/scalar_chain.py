"""Exercise 1 - scalar gradient chain.  Amara Okafor"""

import math


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    # every layer multiplies by the same slope, so the whole chain is just a power.
    # math.pow always gives back a float (and matches ** exactly), even for depth 0.
    return math.pow(layer_scale, depth)
