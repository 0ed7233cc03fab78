"""Exercise 6 - clipping by global norm.  Amara Okafor"""

import numpy as np


def clip_by_global_norm(grads: list[np.ndarray], max_norm: float) -> tuple[list[np.ndarray], float]:
    total_sq = 0.0
    for g in grads:
        total_sq += float(np.sum(g * g))
    norm = float(np.sqrt(total_sq))

    if norm <= max_norm:
        # nothing to do (this also covers norm == 0, so no division by zero)
        return [g.copy() for g in grads], norm

    factor = max_norm / norm
    clipped = [g * factor for g in grads]
    return clipped, norm
