"""Draws the stack of layer weights first, shaped (dim, dim, depth), and backpropagates from the last layer to the first."""

import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    stack = rng.normal(0.0, weight_std, size=(dim, dim, depth))
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for layer in reversed(range(depth)):
        g = g @ stack[:, :, layer].T
        norms.append(float(np.linalg.norm(g)))
    return norms
