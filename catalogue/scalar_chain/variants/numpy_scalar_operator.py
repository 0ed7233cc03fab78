"""Converts to a numpy float64 and uses **, which matches Python's power to the last bit."""
import numpy as np


def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    return np.float64(layer_scale) ** depth
