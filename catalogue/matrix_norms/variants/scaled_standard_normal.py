"""Scales rng.standard_normal draws by weight_std and measures the norm as sqrt(sum(g ** 2))."""

import numpy as np
import math


def matrix_gradient_norms(depth: int, dim: int, weight_std: float, rng) -> list[float]:
    g = np.ones(dim)
    norms = [math.sqrt(float(np.sum(g ** 2)))]
    for _ in range(depth):
        weights = weight_std * rng.standard_normal((dim, dim))
        g = weights @ g
        norms.append(math.sqrt(float(np.sum(g ** 2))))
    return norms
