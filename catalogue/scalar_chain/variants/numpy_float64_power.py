"""np.float64(layer_scale) ** np.float64(depth): the same C pow as **, returning a numpy float64, which is a float."""

import numpy as np
def scalar_gradient_chain(depth, layer_scale):
    return np.float64(layer_scale) ** np.float64(depth)
