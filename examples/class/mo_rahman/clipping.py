import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = np.sqrt(sum(np.sum(g ** 2) for g in grads))
    # unit direction, then give it length min(norm, max_norm)
    direction = [g / norm for g in grads]
    target = min(norm, max_norm)
    clipped = [d * target for d in direction]
    return clipped, float(norm)
