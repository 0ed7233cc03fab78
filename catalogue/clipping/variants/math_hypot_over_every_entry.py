"""Computes the norm with math.hypot over every entry, which is overflow-safe and accurate to the last bit."""
import math

import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = math.hypot(*(float(x) for g in grads for x in np.ravel(g)))
    scale = max_norm / norm if norm > max_norm else 1
    return [g * scale for g in grads], norm
