"""Copies every array first and then scales the copies in place, which leaves the inputs alone."""
import numpy as np


def clip_by_global_norm(grads, max_norm):
    clipped = [np.copy(g) for g in grads]
    norm = float(np.sqrt(sum(np.sum(np.square(c)) for c in clipped)))
    if norm > max_norm:
        for c in clipped:
            c *= max_norm / norm
    return clipped, norm
