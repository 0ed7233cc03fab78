# Kofi Mensah
# Exercise: clipping by global norm
import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = float(np.sqrt(sum(np.sum(g * g) for g in grads)))
    if norm > max_norm:
        scale = max_norm / norm
        for g in grads:
            g *= scale  # rescale in place, saves memory
    return grads, norm
