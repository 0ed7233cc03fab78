import numpy as np


def global_norm(arrays):
    return float(np.sqrt(sum(np.sum(a ** 2) for a in arrays)))


def clip_by_global_norm(grads, max_norm):
    norm = global_norm(grads)
    if norm > max_norm:
        grads = [g * (max_norm / norm) for g in grads]
        norm = global_norm(grads)   # norm of what we return
    return grads, norm
