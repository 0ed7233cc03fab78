import numpy as np


def clip_by_global_norm(grads: list[np.ndarray], max_norm: float) -> tuple[list[np.ndarray], float]:
    norm = np.sqrt(np.sum([np.sum(np.square(g)) for g in grads]))
    norm = float(norm)
    factor = 1.0
    if norm > max_norm:
        factor = max_norm / norm
    return [g * factor for g in grads], norm
