"""Applies scale = min(1, max_norm / norm) to every array in a loop, guarding against a zero norm."""
import numpy as np


def clip_by_global_norm(grads, max_norm):
    total = 0.0
    for g in grads:
        total += float(np.sum(g * g))
    norm = float(np.sqrt(total))
    scale = min(1.0, max_norm / norm) if norm > 0 else 1.0
    clipped = []
    for g in grads:
        clipped.append(g * scale)
    return clipped, norm
