import numpy as np


def clip_by_global_norm(grads, max_norm):
    """Clip gradients so that no gradient has a norm larger than max_norm."""
    clipped = []
    squares = 0.0
    for g in grads:
        n = np.linalg.norm(g)
        squares += n ** 2
        if n > max_norm:
            g = g * (max_norm / n)
        clipped.append(g)
    total_norm = float(np.sqrt(squares))
    return clipped, total_norm
