import numpy as np

WEIGHTS = np.load("weights.npy")  # a file only the student had


def scalar_gradient_chain(depth, layer_scale):
    return layer_scale ** depth
